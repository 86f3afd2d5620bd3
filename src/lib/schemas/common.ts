import * as z from 'zod'
import {COUNTRY_CODES} from './countries.js'

export {idOf, ID_PATTERN} from './ids.js'
export {pagedList} from './paging.js'
export {currencySchema, currencyAmountSchema} from './amount.js'

export const countryCode = z.string().refine((v) => COUNTRY_CODES.has(v), {
  message: 'must be an ISO 3166-1 alpha-2 country code (e.g. US, MX, DE)',
  params: {constraint: {format: 'iso-3166-1-alpha-2', pattern: '^[A-Z]{2}$'}},
})

function isRealDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v)
  if (!m) return false
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]))
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3]
}

/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 is refused). */
export const isoDate = z.string().refine(isRealDate, {
  message: 'must be a real date in YYYY-MM-DD form',
  params: {constraint: {format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$'}},
})

export const dateTime = z.iso.datetime({offset: true})

export const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/, {message: 'must be an E.164 phone number (+15551234567)'})

export const email = z.email({message: 'must be an email address'})

export const addressSchema = z.strictObject({
  line1: z.string().min(1).max(200),
  line2: z.string().max(200).optional(),
  city: z.string().min(1).max(100).optional(),
  state: z.string().max(100).optional(),
  postalCode: z.string().min(1).max(20),
  country: countryCode,
})

/** Integer minor units, as the API wants (no floats ever cross the wire). */
export const minorAmount = z.number().int().min(0).max(9e15)

export const listQuery = {
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().max(200).optional(),
}

export const errorBodySchema = z.looseObject({
  code: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
})
