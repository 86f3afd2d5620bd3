import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {Socket} from 'node:net'
import {limitServer} from './server.js'

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
