import type {FieldError} from '../errors.js'

/** Nobody onboarded today was born before this: an earlier date is a typo (1090 for 1990). */
export const EARLIEST_BIRTH_DATE = '1900-01-01'

/**
 * A birth date that is a real date (the schema checks that) but cannot be one: after `today`
 * (2990-01-01) or before 1900. `today` is the caller's clock: the machine's for the client, the
 * sandbox's own (which may be advanced) for the sandbox. Ill-formed dates are left to the schema.
 */
export function birthDateErrors(body: unknown, today: string, field = 'birthDate'): FieldError[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return []
  const day = today.slice(0, 10)
  if (value > day) return [{field, message: `must not be in the future (today is ${day}), got ${value}`}]
  if (value < EARLIEST_BIRTH_DATE) return [{field, message: `must be on or after ${EARLIEST_BIRTH_DATE}, got ${value}`}]
  return []
}
