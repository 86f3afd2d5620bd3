import type {z} from 'zod'
import type {FieldError} from '../lib/errors.js'
import {fieldErrors} from '../lib/schemas/field-errors.js'

/**
 * An error body both readings accept: the spec's `{code, reason, details}` (service-api.md §2.12) and
 * the contract's `{status, code, message, details}` (api-gaps §9), with `message` equal to `reason`.
 * Clients generated from the contract read `message`; svc and the spec read `reason`.
 */
export function errorBody(status: number, code: string, reason: string, details: Record<string, unknown> = {}) {
  return {status, code, reason, message: reason, details}
}

/** An error answer (see errorBody). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    reason: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(reason)
  }

  /** Set by `keepingWrites`: the refusal is itself an outcome to store (a failed verification). */
  keepWrites = false

  body() {
    return errorBody(this.status, this.code, this.message, this.details)
  }
}

/**
 * A refusal whose request still changed state on purpose (a bad signature moves the account to
 * UNVERIFIED): its unit commits instead of rolling back.
 */
export function keepingWrites(e: HttpError): HttpError {
  e.keepWrites = true
  return e
}

export const notFound = (code: string, what: string) => new HttpError(404, code, `${what} not found`)
export const conflict = (code: string, reason: string, details?: Record<string, unknown>) =>
  new HttpError(409, code, reason, details)
export const badRequest = (code: string, reason: string, details?: Record<string, unknown>) =>
  new HttpError(400, code, reason, details)

/**
 * Validates with a shared schema; on failure every invalid field comes back at once, together with
 * `also` (problems found outside the schema, e.g. a cursor this sandbox never issued).
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix?: string,
  also: FieldError[] = [],
): z.infer<S> {
  const r = schema.safeParse(value)
  if (r.success && also.length === 0) return r.data
  const errors = r.success ? [] : fieldErrors(r.error, prefix)
  for (const e of also) if (!errors.some((x) => x.field === e.field)) errors.push(e)
  throw new HttpError(400, 'INVALID_INPUT', `Invalid input: ${errors.map((e) => e.field).join(', ')}`, {errors})
}

export function invalid(errors: Array<{field: string; message: string}>): HttpError {
  return new HttpError(400, 'INVALID_INPUT', `Invalid input: ${errors.map((e) => e.field).join(', ')}`, {errors})
}
