import type * as zc from 'zod/v4/core'
import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import type {ClientOptions, RequestOptions} from './client-options.js'
import {describeRequest, type DescribedRequest} from './describe.js'
import {requestHeaders} from './headers.js'
import {exchange} from './http.js'
import {responseSchema, type ApiRequest, type Method, type Query, type ResponseSchema} from './request.js'
import {noteServerDate} from '../server-clock.js'
import {noteAnswer, readAnswer, retryAfterMs, toApiError, type ApiResponse} from './response.js'
import {gatewayLost, maybeSent, objectOf, outcomeUnknown, type SentWrite} from './outcome.js'
import {
  backoff,
  mapNetworkError,
  requestTimeout,
  retryableAnswer,
  retryableNetworkFailure,
  retryReason,
} from './retry.js'
import {redact} from '../secret.js'
import {traceExchange} from './trace.js'
import {requestUrl} from './url.js'

export type {ApiRequest, Method, ResponseSchema} from './request.js'
export type {ClientOptions, RequestOptions} from './client-options.js'
export type {DescribedRequest} from './describe.js'
export type {ApiResponse} from './response.js'
export type {SentWrite} from './outcome.js'
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
  /** The writes this client sent and how each ended, for `svc history` (the base command records them). */
  readonly writes: SentWrite[] = []

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
  describe(req: RequestOptions): DescribedRequest {
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
    const write = req.method !== 'GET'
    // Why an attempt of this write may have been carried out with its answer lost (it is then never just "failed").
    let lost: string | undefined
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
        // No dispatcher yet: making it failed (a bad proxy setting), so nothing left.
        if (write && this.dispatcher && mapped.exitCode === ExitCode.NETWORK && maybeSent(error))
          lost = lostCause(error as Error)
        if (
          attempt < maxRetries &&
          mapped.exitCode === ExitCode.NETWORK &&
          retryableNetworkFailure(error) &&
          (await backoff(this.opts, attempt, undefined, {
            reason: retryReason(undefined, error as Error),
            of: maxRetries,
          }))
        )
          continue
        if (lost) return (await this.settle(req, url, headers, lost)) as ApiResponse<T>
        if (write) this.noteWrite(req, url, headers, {outcome: 'failed', errorCode: mapped.code})
        throw mapped
      }
      traceExchange(this.opts.trace, `< ${res.status} (${Date.now() - started} ms)`, undefined, res.body)
      noteServerDate([res.headers.date].flat()[0])
      res.sentBody = bodyText
      if (res.status < 400) {
        noteAnswer(req.method, res.body)
        if (write) this.noteWrite(req, url, headers, {outcome: 'ok', status: res.status}, res)
        return res as ApiResponse<T>
      }
      const err = toApiError(res)
      err.retryAfterMs = retryAfterMs(res.headers['retry-after'])
      const again = retryableAnswer(res.status, err.code)
      if (write && again && gatewayLost(res.status)) lost = `${res.status} from a gateway`
      if (
        attempt < maxRetries &&
        again &&
        (await backoff(this.opts, attempt, err.retryAfterMs, {reason: retryReason(res.status), of: maxRetries}))
      )
        continue
      if (lost && again) return (await this.settle(req, url, headers, `${lost}, then ${res.status}`)) as ApiResponse<T>
      if (write) this.noteWrite(req, url, headers, {outcome: 'failed', status: res.status, errorCode: err.code}, res)
      throw withRequestHint(err, req.hints)
    }
  }

  /**
   * The answer to a write was lost: a read that can tell (req.readBack) is asked first, and when it
   * shows the write took effect its answer stands for the write's. Otherwise OUTCOME_UNKNOWN, with
   * the key that finishes it exactly once.
   */
  private async settle(
    req: RequestOptions,
    url: string,
    headers: Record<string, string>,
    cause: string,
  ): Promise<ApiResponse> {
    const key = headers['idempotency-key']
    let found: string | undefined
    if (req.readBack) {
      const read = req.readBack.request
      const readUrl = this.url(read.path, read.query)
      traceExchange(this.opts.trace, `> GET ${readUrl} (read back: the answer to ${req.method} was lost)`)
      try {
        // Its own short timeout: the command's --timeout may be spent already, waiting for the lost answer.
        const res = await exchange(
          this.dispatcher!,
          'GET',
          readUrl,
          requestHeaders(this.opts, read, undefined, false, undefined, false),
          undefined,
          Math.min(this.opts.timeoutMs, READ_BACK_MS),
        )
        traceExchange(this.opts.trace, `< ${res.status}`, undefined, res.body)
        if (res.status < 400) {
          const verdict = req.readBack.landed(res.body)
          if (verdict.done) {
            this.opts.warn?.(
              `No answer came to ${req.method} ${new URL(url).pathname} (${cause}); read back: ${verdict.said}.`,
            )
            noteAnswer(req.method, res.body)
            this.noteWrite(req, url, headers, {outcome: 'ok', status: res.status}, res)
            return res
          }
          found = verdict.said
        } else found = `the read-back answered ${res.status}`
      } catch (e) {
        if (e instanceof SvcError) {
          // The read settled it the other way (an EXPIRED quote): a known failure, recorded as one.
          this.noteWrite(req, url, headers, {outcome: 'failed', errorCode: e.code})
          throw e
        }
        found = 'the read-back got no answer either'
      }
    }
    const path = new URL(url).pathname.slice(new URL(this.opts.baseUrl).pathname.replace(/\/$/, '').length)
    this.noteWrite(req, url, headers, {outcome: 'unknown'})
    throw outcomeUnknown({
      method: req.method,
      path,
      segments: req.path,
      idempotencyKey: key,
      commandKey: key ? this.baseIdempotencyKey : undefined,
      cause,
      readBack: found,
      hint: req.hints?.OUTCOME_UNKNOWN,
    })
  }

  /** One entry of `writes`: what `svc history` records for this command. */
  private noteWrite(
    req: RequestOptions,
    url: string,
    headers: Record<string, string>,
    end: Pick<SentWrite, 'outcome' | 'status' | 'errorCode'>,
    res?: ApiResponse<unknown>,
  ): void {
    const key = headers['idempotency-key']
    const body = res?.body as {id?: unknown} | undefined
    const answerId = res && res.status < 400 && typeof body?.id === 'string' ? body.id : undefined
    const header = (h: string) => {
      const v = res?.headers[h]
      return Array.isArray(v) ? v[0] : v
    }
    const replayable =
      end.outcome === 'unknown' &&
      key &&
      !req.rawBody &&
      !req.upload &&
      !req.walletSignature &&
      JSON.stringify(redact(req.body)) === JSON.stringify(req.body)
    this.writes.push({
      method: req.method,
      path: new URL(url).pathname + new URL(url).search,
      ...(key ? {idempotencyKey: key} : {}),
      ...pick('requestId', header('request-id') ?? header('x-request-id') ?? headers['request-id']),
      ...end,
      ...pick('objectId', answerId ?? objectOf(req.path).id),
      ...(replayable
        ? {
            resend: {
              segments: req.path,
              ...(req.query ? {query: req.query} : {}),
              ...(req.body === undefined ? {} : {body: req.body}),
            },
          }
        : {}),
    })
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

/** How long a read-back may wait for its answer, whatever is left of --timeout. */
const READ_BACK_MS = 5_000

/** Why an attempt got no answer, in a few words: `other side closed`, `no answer within 30000 ms`. */
function lostCause(error: Error & {code?: string}): string {
  if (String(error.code ?? '').includes('TIMEOUT')) return 'timed out waiting for the answer'
  return error.message || error.code || 'connection lost'
}

function pick<K extends string>(k: K, v: string | undefined): Partial<Record<K, string>> {
  return v === undefined ? {} : ({[k]: v} as Record<K, string>)
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
