import * as z from 'zod'

// Apart from common.ts (countries, dates, request fields), so answer-only modules build just these.

/** The contract requires none of Currency's fields; answers normally carry `code`. */
export const currencySchema = z.looseObject({
  code: z.string().optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  decimals: z.number().int().min(0).optional(),
})

export const currencyAmountSchema = z.looseObject({
  amount: z.number().int(),
  currency: currencySchema,
})
