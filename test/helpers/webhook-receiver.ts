import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {objectOfEvent} from '../../src/emulator/store/event-object.js'

export interface Received {
  at: number
  id: string
  type: string
  /** What the event is about (the sandbox's ordering key: data.id, or the operation's id). */
  object: string
  body: string
  headers: IncomingHttpHeaders
}

/** What a test receiver answers to one delivery: a status (and a JSON body), after a delay (ms). */
export type Answer = {status: number; delayMs?: number; body?: unknown}
/** An answer now, or once the promise settles (a delay slept on a test's fake clock). */
export type AnswerFn = (r: Received) => Answer | Promise<Answer>

export interface TestReceiver {
  server: Server
  url: string
  got: Received[]
  close(): Promise<void>
}

/**
 * A webhook receiver on 127.0.0.1:0 that records every delivery and answers what `answer` says
 * (200 at once by default): the one receiver of the webhook tests.
 */
export function startReceiver(answer: AnswerFn = () => ({status: 200})): Promise<TestReceiver> {
  const got: Received[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', async () => {
      let event: {id?: string; type?: string; data?: unknown} = {}
      try {
        event = JSON.parse(body || '{}') as typeof event
      } catch {} // a hostile or broken body is still recorded and answered
      const r: Received = {
        at: Date.now(),
        id: String(event.id),
        type: String(event.type),
        object: objectOfEvent(event),
        body,
        headers: req.headers,
      }
      got.push(r)
      const a = await answer(r)
      const reply = () =>
        a.body === undefined
          ? res.writeHead(a.status).end()
          : res.writeHead(a.status, {'content-type': 'application/json'}).end(JSON.stringify(a.body))
      if (a.delayMs) setTimeout(reply, a.delayMs)
      else reply()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        got,
        close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
      }),
    ),
  )
}

/** A URL where nothing listens (a port taken and released at once). */
export async function deadUrl(): Promise<string> {
  const r = await startReceiver()
  await r.close()
  return r.url
}
