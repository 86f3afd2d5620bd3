import type * as zc from 'zod/v4/core'
import type {FieldError} from '../errors.js'
import {withArticle} from '../article.js'

/**
 * Turns zod issues into the API's `details.errors[]` entries: a dot-path `field`, an optional
 * `constraint` {format, pattern, enum, minLength, maxLength} and a plain-language `message`.
 * The client uses it before sending and the emulator uses it to answer 400 INVALID_INPUT.
 */
export function fieldErrors(error: zc.$ZodError, prefix?: string): FieldError[] {
  const out: FieldError[] = []
  for (const issue of error.issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.')
    const i = issue as unknown as Record<string, unknown>
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push({field: base ? `${base}.${key}` : key, message: 'is not a known field'})
        break
      case 'invalid_type':
        out.push({
          field: base || '(body)',
          message: /received undefined/.test(issue.message)
            ? 'is required'
            : `must be ${article(String(issue.expected))}`,
        })
        break
      case 'too_small':
        out.push({
          field: base,
          constraint: i.origin === 'string' ? {minLength: Number(i.minimum)} : undefined,
          message:
            i.origin === 'string'
              ? Number(i.minimum) === 1
                ? 'must not be empty'
                : `must be at least ${i.minimum} characters`
              : `must be at least ${i.minimum}`,
        })
        break
      case 'too_big':
        out.push({
          field: base,
          constraint: i.origin === 'string' ? {maxLength: Number(i.maximum)} : undefined,
          message: i.origin === 'string' ? `must be at most ${i.maximum} characters` : `must be at most ${i.maximum}`,
        })
        break
      case 'invalid_format': {
        // zod 4 reports a regex as its literal ("/^...$/"); the API wants the bare source, usable with new RegExp().
        const raw = i.pattern instanceof RegExp ? i.pattern.source : (i.pattern as string | undefined)
        const pattern = raw?.replace(/^\/(.*)\/[a-z]*$/s, '$1')
        out.push({
          field: base,
          constraint: {format: String(i.format), ...(pattern ? {pattern} : {})},
          message: customMessage(issue.message) ?? `must match the ${String(i.format)} format`,
        })
        break
      }
      case 'invalid_value':
        out.push({
          field: base,
          constraint: {enum: (i.values as unknown[]).map(String)},
          message: `must be one of ${(i.values as unknown[]).map(String).join(', ')}`,
        })
        break
      case 'invalid_union': {
        const discriminator = (i.discriminator as string | undefined) ?? issue.path.at(-1)
        const options = Array.isArray(i.options) ? (i.options as unknown[]).map(String) : undefined
        out.push({
          field: base || String(discriminator ?? '(body)'),
          ...(options?.length ? {constraint: {enum: options}} : {}),
          message: options?.length
            ? `must be one of ${options.join(', ')}`
            : issue.message.startsWith('Invalid')
              ? 'is missing or not one of the allowed values'
              : issue.message,
        })
        break
      }
      default: {
        // Refinements (dates, countries, tax ids) carry their constraint in params.
        const constraint = (i.params as {constraint?: Record<string, unknown>} | undefined)?.constraint
        out.push({field: base || '(body)', ...(constraint ? {constraint} : {}), message: issue.message})
      }
    }
  }
  return dedupe(out)
}

function customMessage(message: string): string | undefined {
  return message.startsWith('Invalid') ? undefined : message
}

function article(type: string): string {
  return withArticle(type)
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>()
  return errors.filter((e) => {
    const key = `${e.field}|${e.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
