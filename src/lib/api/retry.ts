import {networkError, SvcError} from '../errors.js'
import type {ClientOptions} from './client-options.js'

/** Answers worth another attempt (rate limit, gateway trouble), unless the code says waiting cannot help. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504])
const NEVER_RETRY_CODES = new Set(['DAILY_VOLUME_LIMIT_EXCEEDED'])

export function retryableAnswer(status: number, code: string): boolean {
  return RETRYABLE_STATUS.has(status) && !NEVER_RETRY_CODES.has(code)
}

/**
 * A refused connection is not retried: nobody is listening, and waiting will not start them. Nor is
 * a connection's own verdict (an untrusted certificate, a proxy's refusal: dispatcher.ts), which
 * arrives already an SvcError and would be the same on every attempt.
 */
export function retryableNetworkFailure(error: unknown): boolean {
  return !(error instanceof SvcError) && !(error as {code?: string}).code?.includes('REFUSED')
}

type Timing = Pick<ClientOptions, 'deadline' | 'now' | 'timeoutMs' | 'random' | 'sleep' | 'trace' | 'notice'>

const REASONS: Record<number, string> = {
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** What a retry line says went wrong: `429 Too Many Requests`, `connection lost (other side closed)`. */
export function retryReason(status: number | undefined, error?: Error): string {
  if (status !== undefined) return `${status} ${REASONS[status] ?? 'answer'}`
  return /timeout/i.test(String((error as {code?: string})?.code ?? ''))
    ? 'no answer in time'
    : `connection lost (${error?.message ?? 'no answer'})`
}

/** 1000 -> `1s`, 380 -> `0.4s`: retry waits as a person reads them. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))}s`
}

/** Time left before the command's --timeout (Infinity without one). */
export function remaining(opts: Timing): number {
  return opts.deadline === undefined ? Infinity : opts.deadline - (opts.now ?? Date.now)()
}

/** Per-request timeout, never past the command's deadline. */
export function requestTimeout(opts: Timing): number {
  return Math.max(1, Math.min(opts.timeoutMs, remaining(opts)))
}

/**
 * Waits before a retry (jittered exponential, or Retry-After); false (no wait) when the retry could
 * not start before --timeout. `say` (`429 Too Many Requests`) makes the one notice line a retry
 * prints: `429 Too Many Requests; retrying in 1s (2/3)`.
 */
export async function backoff(
  opts: Timing,
  attempt: number,
  retryAfter?: number,
  say?: {reason: string; of: number},
): Promise<boolean> {
  const random = opts.random ?? Math.random
  const base = Math.min(250 * 2 ** attempt, 4000)
  const ms = retryAfter ?? Math.round(base / 2 + random() * (base / 2))
  if (ms >= remaining(opts)) {
    opts.trace?.(`  not retrying: --timeout ends in ${Math.max(0, Math.round(remaining(opts)))} ms`)
    return false
  }
  opts.trace?.(`  waiting ${ms} ms before retrying`)
  if (say) opts.notice?.(`${say.reason}; retrying in ${seconds(ms)} (${attempt + 1}/${say.of})`)
  await (opts.sleep ?? ((t) => new Promise((r) => setTimeout(r, t))))(ms)
  return true
}

/** A failure below HTTP as the user's error: who did not answer, and what to try. */
export function mapNetworkError(
  opts: Pick<ClientOptions, 'onConnectionRefused' | 'timeoutMs'>,
  error: Error & {code?: string},
  url: string,
): SvcError {
  if (error instanceof SvcError) return error
  const code = error.code ?? ''
  if (code === 'ECONNREFUSED' || error.message.includes('ECONNREFUSED')) {
    return opts.onConnectionRefused?.(error) ?? networkError(`Nothing answers at ${new URL(url).origin}`)
  }
  if (code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) {
    return networkError(
      `No answer from ${new URL(url).origin} within ${opts.timeoutMs} ms`,
      'Raise --timeout or check the service status.',
    )
  }
  return networkError(`Cannot reach ${new URL(url).origin}: ${error.message}`)
}
