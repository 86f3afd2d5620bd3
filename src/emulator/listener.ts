import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {Socket} from 'node:net'
import type {EmuResponse} from './context.js'
import {HttpError} from './http-error.js'

/*
 * The sandbox's one front door, shared by a single sandbox (server.ts) and the multi-sandbox server
 * (multi/server.ts, multi/admin.ts): the listener with its limits, the body reader, and `send()`.
 */

/** A certificate and its key (PEM) for `serve --tls` (tls/local-ca.ts makes them). */
export interface TlsIdentity {
  cert: string
  key: string
}

/**
 * The sandbox's listener (a single sandbox's, or the team server's): HTTP, or HTTPS with `tls`,
 * with the server limits, and its sockets tracked so that close() need not wait out keep-alives.
 */
export function createListener(
  tls: TlsIdentity | undefined,
  sockets: Set<Socket>,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const options = {keepAlive: true, keepAliveTimeout: 30_000, connectionsCheckingInterval: 1_000}
  // node:https only for --tls; its server is an http.Server in all that the limits touch.
  const server = tls
    ? (process.getBuiltinModule('node:https').createServer({...options, ...tls}, handler) as unknown as Server)
    : createServer(options, handler)
  limitServer(server)
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  return server
}

/** The scheme of a listener's URLs. */
export const schemeOf = (tls: TlsIdentity | undefined) => (tls ? 'https' : 'http')

/** Connections held at most; idle keep-alive ones are closed first once SOFT_CONNECTIONS are open. */
export const MAX_CONNECTIONS = 8_192
const SOFT_CONNECTIONS = 6_144

/**
 * Bounds what clients can hold. Headers must arrive within 5 s (checked every second), so slowloris
 * connections go quickly; an idle connection costs a few KiB, so thousands are held, and when they
 * crowd towards the cap the idle keep-alive ones are closed before any request is turned away.
 */
export function limitServer(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS
  server.headersTimeout = 5_000
  server.requestTimeout = 60_000
  let open = 0
  server.on('connection', (socket) => {
    open++
    socket.once('close', () => open--)
    if (open >= SOFT_CONNECTIONS) server.closeIdleConnections()
  })
}

export const tooLarge = (limit: number) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is over ${limit} bytes, the most this route takes`, {
    limitBytes: limit,
  })

/** The body, streamed against the route's cap: a larger one is refused (413) as soon as it passes it, never buffered whole. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) return Promise.reject(tooLarge(limit))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) {
        req.pause()
        req.removeAllListeners('data')
        chunks.length = 0
        reject(tooLarge(limit))
      } else chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** Writes an answer: JSON for `body`, as given for `text`; HEAD gets the headers only. */
export function send(res: ServerResponse, r: EmuResponse, head = false, now?: number): void {
  // A sandbox's Date header is its own clock (frozen or advanced), as a server's is its own: clients read "3m ago" against it.
  const headers: Record<string, string> = {
    ...(now === undefined ? {} : {date: new Date(now).toUTCString()}),
    ...r.headers,
  }
  let payload = ''
  if (r.text !== undefined) payload = r.text
  else if (r.body !== undefined) {
    payload = JSON.stringify(r.body)
    headers['content-type'] ??= 'application/json'
  }
  headers['content-length'] = String(Buffer.byteLength(payload))
  res.writeHead(r.status, headers)
  res.end(head ? undefined : payload)
}
