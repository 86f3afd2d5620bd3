// One webhook delivery over HTTP(S), bounded in time and in how much of the answer is read.
import {request as httpRequest} from 'node:http'
import {createRequire} from 'node:module'

/** One delivery attempt may take this long in all: connecting, sending and the whole answer. */
export const DELIVERY_DEADLINE_MS = 5_000
/** What is kept of a receiver's answer; the rest is never read (the socket is destroyed). */
export const MAX_ANSWER_BYTES = 4 * 1024

/**
 * POSTs one event. A receiver cannot hold the outbox past DELIVERY_DEADLINE_MS however slowly it
 * trickles, nor make the sandbox read more than MAX_ANSWER_BYTES of its answer.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const u = new URL(url)
    let settled = false
    const finish = (err: Error | undefined, value?: {status: number; body: string}) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      if (err) reject(err)
      else resolve(value!)
    }
    const req = (u.protocol === 'https:' ? httpsRequestOf() : httpRequest)(
      u,
      {method: 'POST', headers: {...headers, 'content-length': String(Buffer.byteLength(body))}},
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        const done = () => {
          finish(undefined, {status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000)})
          if (!res.complete) req.destroy()
        }
        res.on('data', (c: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(c.subarray(0, MAX_ANSWER_BYTES - size))
          size += c.length
          // The status is known and enough of the answer is kept: stop reading.
          if (size >= MAX_ANSWER_BYTES) done()
        })
        res.on('end', done)
        res.on('error', (e) => finish(e))
      },
    )
    const deadline = setTimeout(() => {
      const e = new Error(`timed out after ${DELIVERY_DEADLINE_MS / 1000}s`)
      finish(e)
      req.destroy(e)
    }, DELIVERY_DEADLINE_MS)
    deadline.unref?.()
    req.on('error', (e) => finish(e))
    req.end(body)
  })
}

/** node:https (and TLS under it) only once a webhook goes to an https URL: not at every sandbox start. */
function httpsRequestOf(): typeof import('node:https').request {
  return (createRequire(import.meta.url)('node:https') as typeof import('node:https')).request
}
