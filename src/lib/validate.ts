import type {z} from 'zod'
import {InputError} from './errors.js'
import {fieldErrors} from './schemas/field-errors.js'

/** Checks input with the shared schema before any request; every bad field is named (exit 2). */
export function checkWith<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.infer<S> {
  // jitless: a schema checked once per process is not worth compiling a fast path for.
  const r = schema.safeParse(value, {jitless: true})
  if (!r.success) throw new InputError(fieldErrors(r.error, prefix))
  return r.data
}

/** Drops undefined entries (query objects built from optional flags). */
export function compact<T extends Record<string, unknown>>(o: T): {[K in keyof T]: Exclude<T[K], undefined>} {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never
}
