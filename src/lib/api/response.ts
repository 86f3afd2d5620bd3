import type * as zc from 'zod/v4/core'
import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {fieldErrors} from '../schemas/field-errors.js'
import type {Method, ResponseSchema} from './request.js'

export interface ApiResponse<T = unknown> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
  /** The exact bytes of the request body, for signed retries that must resend them verbatim. */
  sentBody?: string
}

/** Bodies of successful POST/PUT/PATCH/DELETE answers: the change has happened, whatever their shape. */
const writtenBodies = new WeakSet<object>()

/** Remembers the body of a successful write, so that `readAnswer` salvages rather than fails on it. */
export function noteAnswer(method: Method, body: unknown): void {
  if (method !== 'GET' && body && typeof body === 'object') writtenBodies.add(body)
}

/**
 * zod compiles a parser per object shape (new Function) on its first parse, which pays off only
 * over many parses. A command parses a handful of answers: interpreting them is faster.
 */
const PARSE_ONCE = {jitless: true}

/**
 * Validates a response body with a loose schema; a mismatch is a clear error, never a crash. After
 * a successful write (POST/PUT/PATCH/DELETE) the change has happened, so a mismatch is a warning
 * (`warn`, stderr), never a failure: the fields that do not fit are left out and the rest is returned.
 */
export function readAnswer<S extends ResponseSchema>(
  schema: S,
  body: unknown,
  what: string,
  warn?: (line: string) => void,
): zc.output<S> {
  const r = schema.safeParse(body, PARSE_ONCE)
  if (r.success) return r.data as zc.output<S>
  if (body && typeof body === 'object' && writtenBodies.has(body)) return salvage(schema, body, what, r.error, warn)
  throw new SvcError({
    code: 'RESPONSE_INVALID',
    message: `The API answered with an unexpected ${what}: ${fieldErrors(r.error)
      .map((e) => `${e.field} ${e.message}`)
      .join('; ')}`,
    exitCode: ExitCode.FAILED,
  })
}

function salvage<S extends ResponseSchema>(
  schema: S,
  body: object,
  what: string,
  error: zc.$ZodError,
  warn?: (line: string) => void,
): zc.output<S> {
  const bad = fieldErrors(error)
  warn?.(
    `The change was made, but the API answered with an unexpected ${what} (${bad.map((e) => `${e.field} ${e.message}`).join('; ')}); those fields are left out.`,
  )
  const copy = structuredClone(body) as Record<string, unknown>
  for (const issue of error.issues) dropPath(copy, issue.path)
  const again = schema.safeParse(copy, PARSE_ONCE)
  return (again.success ? again.data : copy) as zc.output<S>
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

/** An answer's text as a value: JSON when the answer says so, undefined when empty, else the text. */
export function decodeBody(status: number, contentType: unknown, text: string): unknown {
  if (!text.length) return undefined
  if (!String(contentType ?? '').includes('json')) return text
  try {
    return JSON.parse(text)
  } catch {
    throw new SvcError({
      code: 'RESPONSE_INVALID',
      message: `The API answered ${status} with invalid JSON`,
      exitCode: ExitCode.FAILED,
    })
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
