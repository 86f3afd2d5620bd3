import {createServer, type IncomingMessage} from 'node:http'
import {connect, type AddressInfo, type Socket} from 'node:net'
import {closeBeforeRemoval} from './temp-dirs.js'

export interface TestProxy {
  /** http://127.0.0.1:<port> */
  url: string
  /** Every CONNECT it was asked for, in order: the target (host:port) and whether credentials came with it. */
  seen: Array<{target: string; proxyAuthorization?: string}>
  close(): Promise<void>
}

/**
 * A real forward proxy, as small as one can be: it opens CONNECT tunnels (what svc asks of a proxy,
 * for http:// and https:// URLs alike) and pipes bytes both ways. `refuse` answers every CONNECT
 * 403; `credentials` ("user:password") demands Proxy-Authorization (407 without it).
 */
export async function startProxy(opts: {refuse?: boolean; credentials?: string} = {}): Promise<TestProxy> {
  const seen: TestProxy['seen'] = []
  const tunnels = new Set<Socket>()
  const server = createServer((_req, res) => res.writeHead(405).end('CONNECT only\n'))
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const auth = req.headers['proxy-authorization']
    seen.push({target: req.url ?? '', ...(auth ? {proxyAuthorization: auth} : {})})
    tunnels.add(client)
    client.on('close', () => tunnels.delete(client))
    client.on('error', () => client.destroy())
    if (opts.refuse) return void client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n')
    const expected = opts.credentials && `Basic ${Buffer.from(opts.credentials).toString('base64')}`
    if (expected && auth !== expected)
      return void client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="test"\r\ncontent-length: 0\r\n\r\n',
      )
    const [host, port] = splitTarget(req.url ?? '')
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    tunnels.add(upstream)
    upstream.on('close', () => (tunnels.delete(upstream), client.destroy()))
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  let open = true
  const close = async () => {
    if (!open) return
    open = false
    for (const s of tunnels) s.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  closeBeforeRemoval(close)
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close}
}

function splitTarget(target: string): [string, number] {
  const at = target.lastIndexOf(':')
  return [target.slice(0, at).replace(/^\[|\]$/g, ''), Number(target.slice(at + 1))]
}
