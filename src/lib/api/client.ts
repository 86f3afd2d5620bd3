import type * as zc from 'zod/v4/core'
import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import type {ClientOptions, RequestOptions} from './client-options.js'
import {describeRequest, type DescribedRequest} from './describe.js'
import {requestHeaders} from './headers.js'
import {exchange} from './http.js'
import {responseSchema, type ApiRequest, type Method, type Query, type ResponseSchema} from './request.js'
import {noteAnswer, readAnswer, retryAfterMs, toApiError, type ApiResponse} from './response.js'
import {backoff, mapNetworkError, requestTimeout, retryableAnswer, retryableNetworkFailure} from './retry.js'
import {traceExchange} from './trace.js'
import {requestUrl} from './url.js'

export type {ApiRequest, Method, ResponseSchema} from './request.js'
export type {ClientOptions, RequestOptions} from './client-options.js'
export type {DescribedRequest} from './describe.js'
export type {ApiResponse} from './response.js'
export {retryAfterMs, toApiError} from './response.js'

/**
 * The one transport: sends a described request (HTTP Basic with the profile's token, or an agent's
 * Bearer), JSON in and out, error answers as ApiError, retries with backoff for GETs and for
 * requests that carry an Idempotency-Key (the same key on every attempt). The pieces live beside
 * it: headers.ts, url.ts (what is sent), http.ts (undici), retry.ts, response.ts (reading answers),
 * describe.ts (--dry-run), paging.ts (lists).
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
    // Web Crypto's randomUUID: the same CSPRNG as node:crypto's, without loading all of node:crypto.
    this.baseIdempotencyKey ??= this.opts.idempotencyKey ?? globalThis.crypto.randomUUID()
    return scope ? `${this.baseIdempotencyKey}:${scope}` : this.baseIdempotencyKey
  }

  url(path: string[], query?: Query): string {
    return requestUrl(this.opts.baseUrl, path, query)
  }

  /** --dry-run: the request exactly as `request` would send it, with credentials and secret fields redacted. */
  describe(req: ApiRequest): DescribedRequest {
    return describeRequest(this.opts, req, this.keyOf(req))
  }

  /** Sends a described request and reads its answer with the request's schema. */
  async call<T>(req: ApiRequest<T> & Pick<RequestOptions, 'idempotencyKey'>): Promise<T> {
    const res = await this.request(req)
    if (!req.response) return res.body as T
    return this.parse(await responseSchema(req.response), res.body, req.response.what) as T
  }

  /** Reads an answer with a loose schema (see response.ts: a write's answer is salvaged, not refused). */
  parse<S extends ResponseSchema>(schema: S, body: unknown, what: string): zc.output<S> {
    return readAnswer(schema, body, what, this.opts.warn)
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
    await this.checkPlanned(req)
    const headers = requestHeaders(this.opts, req, this.keyOf(req), bodyText !== undefined, contentType, false)
    const retryable = req.method === 'GET' || Boolean(headers['idempotency-key'])
    const maxRetries = retryable ? (this.opts.maxRetries ?? 3) : 0
    for (let attempt = 0; ; attempt++) {
      traceExchange(this.opts.trace, `> ${req.method} ${url}${attempt ? ` (retry ${attempt})` : ''}`, headers, bodyText)
      const started = Date.now()
      let res: ApiResponse<unknown>
      try {
        this.dispatcher ??= this.opts.dispatcher ?? (await (await import('./dispatcher.js')).openDispatcher(this.opts))
        this.requests.push({method: req.method, url})
        res = await exchange(this.dispatcher, req.method, url, headers, rawBody ?? bodyText, requestTimeout(this.opts))
      } catch (error) {
        const mapped = mapNetworkError(this.opts, error as Error, url)
        if (
          attempt < maxRetries &&
          mapped.exitCode === ExitCode.NETWORK &&
          retryableNetworkFailure(error) &&
          (await backoff(this.opts, attempt))
        )
          continue
        throw mapped
      }
      traceExchange(this.opts.trace, `< ${res.status} (${Date.now() - started} ms)`, undefined, res.body)
      res.sentBody = bodyText
      if (res.status < 400) {
        noteAnswer(req.method, res.body)
        return res as ApiResponse<T>
      }
      const err = toApiError(res)
      err.retryAfterMs = retryAfterMs(res.headers['retry-after'])
      if (
        attempt < maxRetries &&
        retryableAnswer(res.status, err.code) &&
        (await backoff(this.opts, attempt, err.retryAfterMs))
      )
        continue
      throw withRequestHint(err, req.hints)
    }
  }

  async close(): Promise<void> {
    if (this.dispatcher !== this.opts.dispatcher) await this.dispatcher?.close().catch(() => {})
  }

  /** A confirmed plan's run sends only the writes it planned: anything else is refused before it leaves. */
  private async checkPlanned(req: RequestOptions): Promise<void> {
    if (!this.opts.planned || req.method === 'GET') return
    // Loaded only for such a run: hashing brings node:crypto, which no other start pays for.
    const {requestDigest} = await import('./planned.js')
    if (this.opts.planned.includes(requestDigest(this.describe(req)))) return
    throw new SvcError({
      code: 'PLAN_MISMATCH',
      exitCode: ExitCode.USAGE,
      message: `${req.method} ${this.url(req.path, req.query)} is not the request that was planned and confirmed; nothing was sent`,
      hint: 'Plan again (call the tool without `confirm`) and confirm the new plan.',
    })
  }

  private keyOf(req: RequestOptions): string | undefined {
    return req.idempotencyKey ?? (req.idempotency ? this.idempotencyKey(req.idempotency.scope) : undefined)
  }
}

/** The request's own hint for this error code, where it knows better than the catalogue. */
function withRequestHint(err: ApiError, hints: ApiRequest['hints']): SvcError {
  const hint = hints?.[err.code]
  if (!hint) return err
  return new SvcError({
    code: err.code,
    status: err.status,
    exitCode: err.exitCode,
    details: err.details,
    message: err.message,
    hint,
  })
}
