import type {IncomingMessage, ServerResponse} from 'node:http'
import {API_VERSION} from '../lib/paths.js'
import type {SandboxContext} from './context.js'
import {authorize, principalFor} from './authz/enforce.js'
import {injectFault, type AfterCommit} from './faults.js'
import {HttpError, errorBody} from './http-error.js'
import {readBody, send} from './listener.js'
import type {Principal} from './principal.js'
import {invoke} from './idempotency.js'
import {DEFAULT_MAX_BODY, PUBLIC_MAX_BODY, type EmuResponse, type Router} from './router.js'
import {storeFaultOf} from './store/errors.js'

const PREFIX = `/${API_VERSION}`

/** A request as the server saw it, handed to `Emulator.onResponse` with the answer sent. */
export interface ObservedRequest {
  method: string
  /** Path under the API version prefix, e.g. /customers/Customer:1 */
  path: string
  query: URLSearchParams
  headers: import('node:http').IncomingHttpHeaders
  /** Undefined when the request was refused before its body was read (credentials, faults, 413). */
  rawBody?: Buffer
}

/** The sandbox's own API credentials (credentials.json). */
export interface Credentials {
  tokenId: string
  clientSecret: string
}

/** What the server needs of the instance; the composition root (emulator.ts) provides it. */
export interface ServerHost extends SandboxContext {
  readonly router: Router
  readonly credentials: Credentials
  readonly opts: {recordRequests?: boolean}
  readonly requests: Array<{method: string; path: string}>
  onResponse?: (request: ObservedRequest, response: EmuResponse) => void
  /** The context one request runs in, for the principal resolved here. */
  context(principal: Principal): SandboxContext
}

/**
 * One request, run as its operation's table entry says: the operation, the credentials and who may call it
 * are checked before a byte of the body is read, the body is read as a stream up to the entry's cap (413
 * past it), and the handler runs (with Idempotency-Key replay where the entry has a scope) as one
 * database unit unless the entry says otherwise, so its writes commit together, and the answer goes
 * out only once they are durable.
 */
export async function handleHttp(emu: ServerHost, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: EmuResponse
  const head = req.method === 'HEAD'
  const enqueued = emu.db.expectUnit()
  let seen: ObservedRequest | undefined
  let after: AfterCommit | undefined
  try {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const method = head ? 'GET' : (req.method ?? 'GET')
    if (emu.opts.recordRequests) emu.requests.push({method: req.method ?? 'GET', path: url.pathname})
    if (!url.pathname.startsWith(PREFIX + '/') && url.pathname !== PREFIX)
      throw new HttpError(404, 'NOT_FOUND', `No route ${method} ${url.pathname}; the base path is ${PREFIX}`)
    const path = url.pathname.slice(PREFIX.length) || '/'
    // Faults come before anything else, so a refused request changes nothing (and is no API answer to observe);
    // a lost or slow reply is decided now and applied to the answer once the request has committed.
    const fault = await injectFault(emu, path, req)
    if (fault === 'reset') return void enqueued()
    after = fault
    if (emu.onResponse) seen = {method, path, query: url.searchParams, headers: req.headers}
    // Which operation, who is calling, then may they call it (authz/table.ts): all of it before the body is read.
    const match = emu.router.match(method, path)
    const entry = match && 'op' in match ? match.op : undefined
    const principal = principalFor(emu, entry, req.headers)
    if (!match) throw new HttpError(404, 'NOT_FOUND', `No route ${method} ${path}`)
    if ('allow' in match)
      throw new HttpError(
        405,
        'METHOD_NOT_ALLOWED',
        `${method} is not allowed on ${path}; it takes ${match.allow.join(', ')}`,
        {allowed: match.allow},
        {allow: match.allow.join(', ')},
      )
    authorize(emu, entry, principal, method, path)
    const ctx = emu.context(principal)
    const limit = principal.kind === 'public' ? PUBLIC_MAX_BODY : (match.op.maxBody ?? DEFAULT_MAX_BODY)
    const rawBody = await readBody(req, limit).finally(enqueued)
    if (seen) seen.rawBody = rawBody
    const run = async (): Promise<EmuResponse> => {
      try {
        // The body may have taken long to arrive: a token deleted meanwhile (or an agent revoked) no
        // longer writes. Checked again inside the request's unit, so its writes never commit (issue 29 F12).
        if (method !== 'GET' && principal.kind !== 'public') principalFor(emu, entry, req.headers)
        return await invoke(
          match,
          {
            method,
            path,
            params: match.params,
            query: url.searchParams,
            headers: req.headers,
            body: parseJson(req, rawBody),
            rawBody,
            ctx,
          },
          ctx,
        )
      } catch (e) {
        // A refusal that is itself an outcome commits what led to it; any other throw rolls back.
        if (e instanceof HttpError && e.keepWrites) return errorResponse(e)
        throw e
      }
    }
    response = match.op.unit === false ? await run() : await emu.db.unit(run)
  } catch (e) {
    enqueued()
    if (e instanceof HttpError) response = errorResponse(e)
    else response = unexpectedErrorResponse(emu, e)
  }
  if (after && 'lost' in after) {
    // Handled and committed, then the connection goes without a byte of the answer.
    req.socket.destroy()
    if (seen) emu.onResponse?.(seen, response)
    return
  }
  if (after?.delayMs) await new Promise((r) => setTimeout(r, after.delayMs))
  // A body we refused to read is not drained: close the connection instead of reading it.
  if (!req.complete) res.setHeader('connection', 'close')
  try {
    send(res, response, head, emu.now())
  } catch (e) {
    // An answer that cannot be serialised or written fails this request only, never the process.
    emu.log(`could not send the answer to ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`)
    if (!res.headersSent) {
      try {
        send(res, (response = unexpectedErrorResponse(emu, e)), head, emu.now())
      } catch {
        res.destroy()
      }
    } else res.destroy()
  }
  if (seen) emu.onResponse?.(seen, response)
}

/**
 * A failure outside the request's control: the store's faults get an answer that says what to do
 * (wait for a lock, free disk space, restore a backup); anything else is a bug, logged.
 */
function unexpectedErrorResponse(emu: ServerHost, e: unknown): EmuResponse {
  const fault = storeFaultOf(e)
  if (fault === 'busy') {
    return {
      status: 503,
      headers: {'retry-after': '1'},
      body: errorBody(
        503,
        'SANDBOX_BUSY',
        "Another process holds the sandbox database's write lock (a second server, sqlite3, a backup tool); nothing was changed. Retry shortly.",
      ),
    }
  }
  if (fault === 'full') {
    emu.log(`write refused, the disk is full: ${(e as Error).message}`)
    return {
      status: 507,
      body: errorBody(
        507,
        'INSUFFICIENT_STORAGE',
        `The disk holding the sandbox database is full; nothing was changed. Free space on it (${emu.db.file}); reads keep working meanwhile.`,
      ),
    }
  }
  if (fault === 'damaged') {
    emu.log(`damaged data: ${(e as Error).message}`)
    return {
      status: 500,
      body: errorBody(
        500,
        'SANDBOX_DATA_DAMAGED',
        `The sandbox database ${emu.db.file} is damaged where this request read it. Restore a backup with \`svc sandbox restore <file>\` (stop the sandbox first).`,
        {file: emu.db.file},
      ),
    }
  }
  emu.log(`internal error: ${(e as Error)?.stack ?? String(e)}`)
  return {status: 500, body: errorBody(500, 'INTERNAL_ERROR', 'The local sandbox failed; see its log')}
}

function errorResponse(e: HttpError): EmuResponse {
  return {status: e.status, body: e.body(), headers: e.headers}
}

function parseJson(req: IncomingMessage, raw: Buffer): unknown {
  if (!raw.length || !String(req.headers['content-type'] ?? '').includes('json')) return undefined
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    throw new HttpError(400, 'INVALID_INPUT', 'The request body is not valid JSON', {
      errors: [{field: '(body)', message: 'is not valid JSON'}],
    })
  }
}
