import {timingSafeEqual} from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {API_VERSION} from '../lib/paths.js'
import type {Emulator} from './emulator.js'
import {injectFault} from './faults.js'
import {HttpError} from './http-error.js'
import type {EmuResponse} from './router.js'

const MAX_BODY = 12 * 1024 * 1024
const PREFIX = `/${API_VERSION}`

/** Paths a browser opens without API credentials (hosted liveness pages and the like). */
const PUBLIC = [/^\/sandbox\/hosted\//, /^\/sandbox\/webhook-public-key$/]

export async function handleHttp(emu: Emulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: EmuResponse
  try {
    const rawBody = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://localhost')
    const method = req.method ?? 'GET'
    emu.requests.push({method, path: url.pathname})
    if (emu.requests.length > 100_000) emu.requests.splice(0, 50_000)
    if (!url.pathname.startsWith(PREFIX + '/') && url.pathname !== PREFIX) throw new HttpError(404, 'NOT_FOUND', `No route ${method} ${url.pathname}; the base path is ${PREFIX}`)
    const path = url.pathname.slice(PREFIX.length) || '/'
    if (await injectFault(emu, path, req)) return
    if (!PUBLIC.some((p) => p.test(path))) checkAuth(emu, req)
    const match = emu.router.match(method, path)
    if (!match) throw new HttpError(404, 'NOT_FOUND', `No route ${method} ${path}`)
    if (match === 'method') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`)
    response = await match.handler({method, path, params: match.params, query: url.searchParams, headers: req.headers, body: parseJson(req, rawBody), rawBody, emu})
  } catch (e) {
    if (e instanceof HttpError) response = {status: e.status, body: e.body(), headers: e.headers}
    else {
      emu.log(`internal error: ${(e as Error).stack ?? String(e)}`)
      response = {status: 500, body: {code: 'INTERNAL_ERROR', reason: 'The local sandbox failed; see its log'}}
    }
  }
  // Acknowledge only what is durable.
  await emu.db.sync()
  send(res, response)
}

function checkAuth(emu: Emulator, req: IncomingMessage): void {
  const header = req.headers.authorization ?? ''
  const expected = Buffer.from(`${emu.credentials.tokenId}:${emu.credentials.clientSecret}`)
  const m = /^Basic\s+(.+)$/i.exec(header)
  const given = m ? Buffer.from(m[1], 'base64') : Buffer.alloc(0)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new HttpError(401, 'UNAUTHORIZED', 'Missing or invalid API credentials (HTTP Basic <token id>:<client secret>)', undefined, {'www-authenticate': 'Basic realm="svc local sandbox"'})
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'INVALID_INPUT', `Request body over ${MAX_BODY} bytes`))
        req.destroy()
      } else chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function parseJson(req: IncomingMessage, raw: Buffer): unknown {
  if (!raw.length || !String(req.headers['content-type'] ?? '').includes('json')) return undefined
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    throw new HttpError(400, 'INVALID_INPUT', 'The request body is not valid JSON', {errors: [{field: '(body)', message: 'is not valid JSON'}]})
  }
}

function send(res: ServerResponse, r: EmuResponse): void {
  const headers: Record<string, string> = {...r.headers}
  let payload = ''
  if (r.text !== undefined) payload = r.text
  else if (r.body !== undefined) {
    payload = JSON.stringify(r.body)
    headers['content-type'] ??= 'application/json'
  }
  headers['content-length'] = String(Buffer.byteLength(payload))
  res.writeHead(r.status, headers)
  res.end(payload)
}
