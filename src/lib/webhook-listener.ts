import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {ApiClient} from './api/client.js'
import {usageError} from './errors.js'
import {verifyWebhookSignature} from './webhook-signature.js'

export interface ReceivedEvent {
  verified: boolean
  event: {id: string; type: string; timestamp: string; data?: unknown}
  raw: string
  /** The delivery's signature and content headers, to forward them unchanged. */
  headers: Record<string, string>
}

/**
 * A local receiver: verifies each delivery's signature, answers 200 (401 when the signature is bad,
 * 409 for a duplicate id), and hands verified events to `onEvent` in arrival order.
 */
export function listen(opts: {
  port: number
  publicKeyPem: string
  onEvent: (e: ReceivedEvent) => void
  onRejected: (reason: string) => void
}): Promise<{server: Server; url: string}> {
  const seen = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const header = req.headers['x-service-signature']
      if (!verifyWebhookSignature(raw, Array.isArray(header) ? header[0] : header, opts.publicKeyPem)) {
        opts.onRejected(`rejected a delivery with ${header ? 'an invalid' : 'no'} X-Service-Signature`)
        res.writeHead(401).end()
        return
      }
      let event: ReceivedEvent['event']
      try {
        event = JSON.parse(raw.toString('utf8'))
      } catch {
        opts.onRejected('rejected a delivery whose body is not JSON')
        res.writeHead(400).end()
        return
      }
      if (seen.has(event.id)) {
        res.writeHead(409).end()
        return
      }
      seen.add(event.id)
      res.writeHead(200).end()
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers))
        if ((k === 'content-type' || k.startsWith('x-service-')) && typeof v === 'string') headers[k] = v
      opts.onEvent({verified: true, event, raw: raw.toString('utf8'), headers})
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, '127.0.0.1', () =>
      resolve({server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`}),
    )
  })
}

/** The sandbox's webhook public key (PEM), to verify what the listener receives. */
export async function fetchWebhookPublicKey(client: ApiClient): Promise<string> {
  const res = await client.request({method: 'GET', path: ['sandbox', 'webhook-public-key']})
  if (typeof res.body !== 'string' || !res.body.includes('PUBLIC KEY'))
    throw usageError('Could not fetch the webhook public key', 'Pass it with --public-key <file.pem>.')
  return res.body
}
