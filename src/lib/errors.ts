import {ExitCode, type ExitCodeValue, exitCodeForStatus} from './exit-codes.js'
import {exitOverrideFor, hintFor} from './error-catalog.js'

export interface FieldError {
  field: string
  message: string
  constraint?: Record<string, unknown>
}

/**
 * The JSON error document printed under --json: {"error": {status, code, reason, details, hint}}.
 * Every key is always present (status null when no request was answered, details {} when there are
 * none, hint null when there is nothing to add) so scripts can rely on one shape.
 */
export interface ErrorDocument {
  status: number | null
  code: string
  reason: string
  details: Record<string, unknown>
  hint: string | null
}

/**
 * Every failure the user can act on is an SvcError: it carries the exit code, the API's code and
 * reason, and a hint saying what to do next. Anything else that reaches the base command is a bug.
 */
export class SvcError extends Error {
  readonly code: string
  readonly exitCode: ExitCodeValue
  readonly status?: number
  readonly details?: Record<string, unknown>
  readonly hint?: string

  constructor(opts: {
    code: string
    message: string
    exitCode: ExitCodeValue
    status?: number
    details?: Record<string, unknown>
    hint?: string
  }) {
    super(opts.message)
    this.name = 'SvcError'
    this.code = opts.code
    this.exitCode = opts.exitCode
    this.status = opts.status
    this.details = opts.details
    this.hint = opts.hint ?? hintFor(opts.code, opts.message)
  }

  toDocument(): ErrorDocument {
    return {
      status: this.status ?? null,
      code: this.code,
      reason: this.message,
      details: this.details ?? {},
      hint: this.hint || null,
    }
  }
}

/** Invalid input caught before any request: exit 2, every bad field named. */
export class InputError extends SvcError {
  readonly fieldErrors: FieldError[]
  constructor(fieldErrors: FieldError[], message?: string, hint?: string) {
    super({
      code: 'INVALID_INPUT',
      message: message ?? `Invalid input: ${fieldErrors.map((e) => e.field).join(', ')}`,
      exitCode: ExitCode.USAGE,
      details: {errors: fieldErrors},
      hint: hint ?? 'Fix the fields listed above; nothing was sent.',
    })
    this.fieldErrors = fieldErrors
  }
}

export function usageError(message: string, hint?: string): SvcError {
  return new SvcError({code: 'USAGE', message, exitCode: ExitCode.USAGE, hint})
}

export function cancelled(message = 'Cancelled; nothing was sent.'): SvcError {
  return new SvcError({code: 'CANCELLED', message, exitCode: ExitCode.CANCELLED})
}

/**
 * A confirmation that could not be asked (no terminal) and was not given (--yes): "confirmation
 * refused" in the exit-code table (3), like a declined prompt, never a usage error.
 */
export function confirmationRequired(what: string, production = false): SvcError {
  return new SvcError({
    code: 'CANCELLED',
    message: `Refusing to ${what}${production ? ' in production' : ''} without confirmation (no terminal to ask on)`,
    exitCode: ExitCode.CANCELLED,
    hint: 'Pass --yes (-y) to confirm non-interactively; nothing was sent.',
  })
}

export function stillPending(message: string, hint: string): SvcError {
  return new SvcError({code: 'TIMEOUT', message, exitCode: ExitCode.PENDING, hint})
}

/** An error answer from the API, parsed from `{code, reason|message, details}`. */
export class ApiError extends SvcError {
  /** From the Retry-After header of a 429/503 answer, for callers that wait themselves (signed retries). */
  retryAfterMs?: number
  constructor(
    status: number,
    body: {code?: string; reason?: string; message?: string; details?: Record<string, unknown>},
  ) {
    const code = body.code ?? `HTTP_${status}`
    super({
      code,
      status,
      message: body.reason ?? body.message ?? `The API answered ${status}`,
      details: body.details,
      exitCode: (exitOverrideFor(code) as ExitCodeValue | undefined) ?? exitCodeForStatus(status, code),
    })
    this.name = 'ApiError'
  }

  get fieldErrors(): FieldError[] {
    const errors = this.details?.errors
    return Array.isArray(errors) ? (errors as FieldError[]) : []
  }
}

export function networkError(message: string, hint?: string): SvcError {
  return new SvcError({code: 'NETWORK_ERROR', message, exitCode: ExitCode.NETWORK, hint})
}

export function isSvcError(e: unknown): e is SvcError {
  // The local sandbox loads as separate modules (esbuild.config.mjs), with its own copy of this class.
  return (
    e instanceof SvcError ||
    (e instanceof Error &&
      e.name === 'SvcError' &&
      typeof (e as SvcError).exitCode === 'number' &&
      typeof (e as SvcError).toDocument === 'function')
  )
}
