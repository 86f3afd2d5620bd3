import type {z} from 'zod'
import {InputError, type FieldError} from './errors.js'

/** Request field (dot path) -> the flag that sets it. */
export type FlagOf = Record<string, string>

const shapeOf = (s: z.ZodType): Record<string, z.ZodType> | undefined =>
  (s as unknown as {shape?: Record<string, z.ZodType>}).shape
const unwrap = (s: z.ZodType): z.ZodType => (s as unknown as {unwrap?: () => z.ZodType}).unwrap?.call(s) ?? s
const isRequired = (s: z.ZodType): boolean => !s.safeParse(undefined).success
const get = (body: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), body)

function schemaAt(root: z.ZodType, path: string): z.ZodType | undefined {
  let s: z.ZodType | undefined = root
  for (const key of path.split('.')) s = s && shapeOf(unwrap(s))?.[key]
  return s
}

/** The flags of a missing field: its own, or for a missing object (businessInfo, an address) those of its required parts. */
function flagsFor(field: string, body: unknown, root: z.ZodType, flagOf: FlagOf): string[] {
  if (flagOf[field]) return [flagOf[field]]
  const shape = shapeOf(unwrap(schemaAt(root, field) ?? root))
  if (!shape) return []
  return Object.entries(shape)
    .filter(([key, s]) => isRequired(s) && get(body, `${field}.${key}`) === undefined)
    .flatMap(([key]) => flagsFor(`${field}.${key}`, body, root, flagOf))
}

/**
 * Re-reads a schema's complaints about flag-built input: every field left out that a flag sets is
 * named by that flag, all at once ("Missing flags: --legal-name, --tax-id"), so a script under CI
 * learns the whole list in one run. Complaints about values that were given stay as they are.
 */
export function nameMissingFlags(err: InputError, body: unknown, root: z.ZodType, flagOf: FlagOf): InputError {
  const missing: string[] = []
  const other: FieldError[] = []
  for (const e of err.fieldErrors) {
    const flags = get(body, e.field) === undefined ? flagsFor(e.field, body, root, flagOf) : []
    if (flags.length) missing.push(...flags.filter((f) => !missing.includes(f)))
    else other.push(e)
  }
  if (!missing.length) return err
  return missingFlagsError(missing, other)
}

/** Exit 2 naming every missing flag (and any other bad field after them). */
export function missingFlagsError(
  missing: string[],
  other: FieldError[] = [],
  hint = 'Pass them as flags (or in --data); nothing was sent.',
): InputError {
  const names = missing.map((f) => (f.startsWith('-') ? f : `--${f}`))
  const errors = [...names.map((field) => ({field, message: 'is required'})), ...other]
  const message = `Missing ${names.length === 1 ? 'flag' : 'flags'}: ${names.join(', ')}${other.length ? `; invalid: ${other.map((e) => e.field).join(', ')}` : ''}`
  return new InputError(errors, message, hint)
}
