import type * as zc from 'zod/v4/core'
import {ApiError, SvcError, networkError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {redact, type Secret} from '../secret.js'
import {fieldErrors} from '../schemas/field-errors.js'
import type {ApiRequest, Method, Query, ResponseSchema} from './request.js'

export type {ApiRequest, Method, ResponseSchema} from './request.js'

export interface ClientOptions {
  baseUrl: string
  tokenId?: string
  secret?: Secret
  /** An agent's access token (HTTP Bearer, /agents/me routes) used instead of Basic credentials. */
  bearer?: Secret
  /** Per-request timeout in ms. */
  timeoutMs: number
  userAgent: string
  /** Debug sink; every line written here is already redacted. */
  trace?: (line: string) => void
  /** Warnings for the user (stderr), e.g. an unexpected answer shape after a change was made. */
  warn?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  maxRetries?: number
  /** Epoch ms of the command's --timeout: no retry starts (and no request waits) past it. */
  deadline?: number
  now?: () => number
  /** Called once when the first request finds nobody listening (lets the CLI explain local-sandbox start). */
  onConnectionRefused?: (error: Error) => SvcError | undefined
  /** An undici dispatcher to use instead of the client's own keep-alive Agent (tests: MockAgent). */
  dispatcher?: import('undici').Dispatcher
  /** --idempotency-key: the key pinned by the operator (default: a fresh UUID per command). */
  idempotencyKey?: string
}

/** A request as the transport takes it: the description, plus what only a sender has. */
export interface RequestOptions extends ApiRequest {
  /** Bytes sent as they are (a signed retry resends the first leg's bytes); content-type must be given in headers. */
  rawBody?: Uint8Array
  /** A literal key from a scenario file; commands use `idempotency` and the command's key. */
  idempotencyKey?: string
}

/** What --dry-run prints: the request as it would leave, credentials and secret fields redacted. */
export interface DescribedRequest {
  method: Method
  url: string
  headers: Record<string, string>
  body?: unknown
  walletSignature?: {accountId?: string; ifAsked?: boolean}
}

export interface ApiResponse<T = unknown> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
  /** The exact bytes of the request body, for signed retries that must resend them verbatim. */
  sentBody?: string
}

/** Bodies of successful POST/PUT/PATCH/DELETE answers: the change has happened, whatever their shape. */
const writtenBodies = new WeakSet<object>()

/**
 * zod compiles a parser per object shape (new Function) on its first parse, which pays off only
 * over many parses. A command parses a handful of answers: interpreting them is faster.
 */
const PARSE_ONCE = {jitless: true}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504])
/** Node's default limit, given explicitly so undici need not load node:http to read it. */
const MAX_HEADER_BYTES = 16 * 1024
const NEVER_RETRY_CODES = new Set(['DAILY_VOLUME_LIMIT_EXCEEDED'])

/**
 * The only module that imports undici (lazily: loading it costs start-up time). HTTP Basic with the
 * profile's token, JSON in and out, error bodies parsed to ApiError, retries with backoff for
 * GETs and for POSTs that carry an Idempotency-Key (the same key on every attempt).
 */
export class ApiClient {
  private dispatcher?: import('undici').Dispatcher
  private baseIdempotencyKey?: string
  readonly requests: Array<{method: Method; url: string}> = []

  constructor(readonly opts: ClientOptions) {}

  /**
   * The one place an Idempotency-Key is made: one key per command (the operator's --idempotency-key
   * or a fresh UUID), reused on every retry; a scope suffixes it (`run-42:execute`).
   */
  idempotencyKey(scope?: string): string {
    // node:crypto is loaded on first use: a command that sends no keyed request never pays for it.
    this.baseIdempotencyKey ??= this.opts.idempotencyKey ?? process.getBuiltinModule('node:crypto').randomUUID()
    return scope ? `${this.baseIdempotencyKey}:${scope}` : this.baseIdempotencyKey
  }

  url(path: string[], query?: Query): string {
    const encoded = path.map((s) => encodeURIComponent(s)).join('/')
    let url = `${this.opts.baseUrl}/${encoded}`
    const qs = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== '')
    if (qs.length)
      url +=
        '?' +
        new URLSearchParams(
          qs.flatMap(([k, v]): Array<[string, string]> => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]])),
        ).toString()
    return url
  }

  /** --dry-run: the request exactly as `request` would send it, with credentials and secret fields redacted. */
  describe(req: ApiRequest): DescribedRequest {
    const upload = req.upload
    const body = upload
      ? {
          ...definedFields(upload.fields),
          file: `${upload.file.name} (${upload.file.type}, ${upload.file.bytes.length} bytes)`,
        }
      : req.body
    // A multipart boundary is drawn when the body is encoded, at send time.
    const headers = this.headers(req, req.body !== undefined, upload ? 'multipart/form-data' : undefined, true)
    return {
      method: req.method,
      url: this.url(req.path, req.query),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, hideCredential(k, v)])),
      ...(body !== undefined ? {body: redact(body)} : {}),
      ...(req.walletSignature ? {walletSignature: req.walletSignature} : {}),
    }
  }

  /** Sends a described request and reads its answer with the request's schema. */
  async call<T>(req: ApiRequest<T> & Pick<RequestOptions, 'idempotencyKey'>): Promise<T> {
    const res = await this.request(req)
    if (!req.response) return res.body as T
    return this.parse(req.response.schema, res.body, req.response.what) as T
  }

  /**
   * The headers of a request, in the order they are sent: the same function builds what is sent
   * and what --dry-run shows (`redacted`: the credential's scheme only).
   */
  private headers(
    req: RequestOptions,
    json: boolean,
    contentType: string | undefined,
    redacted: boolean,
  ): Record<string, string> {
    const key = req.idempotencyKey ?? (req.idempotency ? this.idempotencyKey(req.idempotency.scope) : undefined)
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...(contentType ? {'content-type': contentType} : json ? {'content-type': 'application/json'} : {}),
      ...(key ? {'idempotency-key': key} : {}),
      ...req.headers,
    }
    if (this.opts.bearer) headers.authorization = 'Bearer ' + (redacted ? '[REDACTED]' : this.opts.bearer.reveal())
    else if (this.opts.tokenId && this.opts.secret) {
      headers.authorization =
        'Basic ' +
        (redacted ? '[REDACTED]' : Buffer.from(`${this.opts.tokenId}:${this.opts.secret.reveal()}`).toString('base64'))
    }
    return headers
  }

  async request<T = unknown>(req: RequestOptions): Promise<ApiResponse<T>> {
    const url = this.url(req.path, req.query)
    const bodyText = req.body === undefined || req.rawBody || req.upload ? undefined : JSON.stringify(req.body)
    let rawBody = req.rawBody
    let contentType: string | undefined
    if (req.upload) {
      const {multipartBody} = await import('./multipart.js')
      ;({rawBody, contentType} = await multipartBody(req.upload.fields, req.upload.file))
    }
    const headers = this.headers(req, bodyText !== undefined, contentType, false)
    const retryable = req.method === 'GET' || Boolean(headers['idempotency-key'])
    const maxRetries = retryable ? (this.opts.maxRetries ?? 3) : 0
    for (let attempt = 0; ; attempt++) {
      this.trace(`> ${req.method} ${url}${attempt ? ` (retry ${attempt})` : ''}`, headers, bodyText)
      const started = Date.now()
      let res: ApiResponse<unknown>
      try {
        res = await this.send(req.method, url, headers, rawBody ?? bodyText)
      } catch (error) {
        const mapped = this.mapNetworkError(error as Error, url)
        if (
          attempt < maxRetries &&
          mapped.exitCode === ExitCode.NETWORK &&
          !(error as {code?: string}).code?.includes('REFUSED') &&
          (await this.backoff(attempt))
        )
          continue
        throw mapped
      }
      this.trace(`< ${res.status} (${Date.now() - started} ms)`, undefined, res.body)
      res.sentBody = bodyText
      if (res.status < 400) {
        if (req.method !== 'GET' && res.body && typeof res.body === 'object') writtenBodies.add(res.body)
        return res as ApiResponse<T>
      }
      const err = toApiError(res)
      err.retryAfterMs = retryAfterMs(res.headers['retry-after'])
      if (
        attempt < maxRetries &&
        RETRYABLE_STATUS.has(res.status) &&
        !NEVER_RETRY_CODES.has(err.code) &&
        (await this.backoff(attempt, retryAfterMs(res.headers['retry-after'])))
      )
        continue
      throw err
    }
  }

  /**
   * Validates a response body with a loose schema; a mismatch is a clear error, never a crash. After
   * a successful write (POST/PUT/PATCH/DELETE) the change has happened, so a mismatch is a warning
   * on stderr, never a failure: the fields that do not fit are left out and the rest is returned.
   */
  parse<S extends ResponseSchema>(schema: S, body: unknown, what: string): zc.output<S> {
    const r = schema.safeParse(body, PARSE_ONCE)
    if (r.success) return r.data as zc.output<S>
    if (body && typeof body === 'object' && writtenBodies.has(body)) return this.salvage(schema, body, what, r.error)
    throw new SvcError({
      code: 'RESPONSE_INVALID',
      message: `The API answered with an unexpected ${what}: ${fieldErrors(r.error)
        .map((e) => `${e.field} ${e.message}`)
        .join('; ')}`,
      exitCode: ExitCode.FAILED,
    })
  }

  private salvage<S extends ResponseSchema>(schema: S, body: object, what: string, error: zc.$ZodError): zc.output<S> {
    const bad = fieldErrors(error)
    this.opts.warn?.(
      `The change was made, but the API answered with an unexpected ${what} (${bad.map((e) => `${e.field} ${e.message}`).join('; ')}); those fields are left out.`,
    )
    const copy = structuredClone(body) as Record<string, unknown>
    for (const issue of error.issues) dropPath(copy, issue.path)
    const again = schema.safeParse(copy, PARSE_ONCE)
    return (again.success ? again.data : copy) as zc.output<S>
  }

  async close(): Promise<void> {
    if (this.dispatcher !== this.opts.dispatcher) await this.dispatcher?.close().catch(() => {})
  }

  private async send(
    method: Method,
    url: string,
    headers: Record<string, string>,
    body?: string | Uint8Array,
  ): Promise<ApiResponse> {
    this.dispatcher ??=
      this.opts.dispatcher ??
      new (await loadAgent())({keepAliveTimeout: 10_000, connections: 8, maxHeaderSize: MAX_HEADER_BYTES})
    this.requests.push({method, url})
    const u = new URL(url)
    const res = await this.dispatcher.request({
      origin: u.origin,
      path: u.pathname + u.search,
      method,
      headers,
      body,
      headersTimeout: this.requestTimeout(),
      bodyTimeout: this.requestTimeout(),
    })
    const text = await res.body.text()
    let parsed: unknown = text
    if (text.length && String(res.headers['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text)
      } catch {
        throw new SvcError({
          code: 'RESPONSE_INVALID',
          message: `The API answered ${res.statusCode} with invalid JSON`,
          exitCode: ExitCode.FAILED,
        })
      }
    } else if (!text.length) parsed = undefined
    return {status: res.statusCode, headers: res.headers, body: parsed}
  }

  private mapNetworkError(error: Error & {code?: string}, url: string): SvcError {
    if (error instanceof SvcError) return error
    const code = error.code ?? ''
    if (code === 'ECONNREFUSED' || error.message.includes('ECONNREFUSED')) {
      return this.opts.onConnectionRefused?.(error) ?? networkError(`Nothing answers at ${new URL(url).origin}`)
    }
    if (code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) {
      return networkError(
        `No answer from ${new URL(url).origin} within ${this.opts.timeoutMs} ms`,
        'Raise --timeout or check the service status.',
      )
    }
    return networkError(`Cannot reach ${new URL(url).origin}: ${error.message}`)
  }

  private remaining(): number {
    return this.opts.deadline === undefined ? Infinity : this.opts.deadline - (this.opts.now ?? Date.now)()
  }

  /** Per-request timeout, never past the command's deadline. */
  private requestTimeout(): number {
    return Math.max(1, Math.min(this.opts.timeoutMs, this.remaining()))
  }

  /** Waits before a retry; false (no wait) when the retry could not start before --timeout. */
  private async backoff(attempt: number, retryAfter?: number): Promise<boolean> {
    const random = this.opts.random ?? Math.random
    const base = Math.min(250 * 2 ** attempt, 4000)
    const ms = retryAfter ?? Math.round(base / 2 + random() * (base / 2))
    if (ms >= this.remaining()) {
      this.opts.trace?.(`  not retrying: --timeout ends in ${Math.max(0, Math.round(this.remaining()))} ms`)
      return false
    }
    this.opts.trace?.(`  waiting ${ms} ms before retrying`)
    await (this.opts.sleep ?? ((t) => new Promise((r) => setTimeout(r, t))))(ms)
    return true
  }

  private trace(line: string, headers?: Record<string, string>, body?: unknown): void {
    const sink = this.opts.trace
    if (!sink) return
    sink(line)
    if (headers) {
      for (const [k, v] of Object.entries(headers)) {
        const hidden = /authorization|signature/i.test(k)
        sink(`  ${k}: ${hidden ? '[REDACTED]' : v}`)
      }
    }
    if (body !== undefined) sink('  ' + JSON.stringify(redact(typeof body === 'string' ? safeJson(body) : body)))
  }
}

/**
 * undici's Agent plus its request API, without the rest of the package (fetch, websocket, mocks,
 * caches, interceptors): the full entry point is much slower to load. The same wiring as
 * undici's index.js (`Object.assign(Dispatcher.prototype, api)`).
 */
async function loadAgent(): Promise<typeof import('undici').Agent> {
  const [agent, api, dispatcher] = await Promise.all([
    // @ts-expect-error deep import (no declarations); typed by the return type
    import('undici/lib/dispatcher/agent.js'),
    // @ts-expect-error deep import (no declarations)
    import('undici/lib/api/index.js'),
    // @ts-expect-error deep import (no declarations)
    import('undici/lib/dispatcher/dispatcher.js'),
  ])
  const cjs = (m: {default?: unknown}) => (m.default ?? m) as Record<string, unknown> & {prototype: object}
  Object.assign(cjs(dispatcher).prototype, cjs(api))
  return cjs(agent) as unknown as typeof import('undici').Agent
}

/** Removes the value at `path` (the first segment that does not fit is removed whole). */
function dropPath(root: Record<string, unknown>, path: ReadonlyArray<PropertyKey>): void {
  let cur: unknown = root
  for (let i = 0; i < path.length - 1; i++) {
    const next = (cur as Record<PropertyKey, unknown> | undefined)?.[path[i]]
    if (!next || typeof next !== 'object') {
      if (cur && typeof cur === 'object') delete (cur as Record<PropertyKey, unknown>)[path[i]]
      return
    }
    cur = next
  }
  const last = path.at(-1)
  if (last !== undefined && cur && typeof cur === 'object') delete (cur as Record<PropertyKey, unknown>)[last]
}

/** Credentials in a described header (also one given with `svc api --header`): the scheme stays, the value goes. */
function hideCredential(name: string, value: string): string {
  if (/signature/i.test(name)) return '[REDACTED]'
  if (!/authorization/i.test(name)) return value
  const scheme = /^(\S+) /.exec(value)?.[1]
  return scheme ? `${scheme} [REDACTED]` : '[REDACTED]'
}

function definedFields(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined))
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value
  if (!v) return undefined
  const seconds = Number(v)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(v)
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined
}

export function toApiError(res: ApiResponse): ApiError {
  const body = res.body && typeof res.body === 'object' ? (res.body as Record<string, unknown>) : {}
  return new ApiError(res.status, {
    code: typeof body.code === 'string' ? body.code : undefined,
    reason: typeof body.reason === 'string' ? body.reason : undefined,
    message: typeof body.message === 'string' ? body.message : undefined,
    details: body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : undefined,
  })
}
