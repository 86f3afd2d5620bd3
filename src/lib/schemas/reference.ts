import * as z from 'zod'
import {CURRENCY_CODES} from '../currencies.js'
import {countryCode, currencySchema} from './common.js'

/** A currency svc and the sandbox know (their decimals decide how amounts read). */
export const knownCurrency = z.string().refine((v) => CURRENCY_CODES.includes(v), {
  message: `must be a currency code svc knows (${CURRENCY_CODES.slice(0, 6).join(', ')} ...)`,
})
const minorUnits = z.string().regex(/^\d{1,15}$/, {message: 'must be a whole number of smallest units'})

/** GET /exchange-rates query; destinationCurrency repeats (an array here). */
export const exchangeRatesQuery = z.strictObject({
  sourceCurrency: knownCurrency.optional(),
  destinationCurrency: z.array(knownCurrency).optional(),
  sendingAmount: minorUnits.optional(),
})
export type ExchangeRatesQuery = z.infer<typeof exchangeRatesQuery>

export const exchangeRateSchema = z.looseObject({
  sourceCurrency: currencySchema,
  destinationCurrency: currencySchema,
  destinationPaymentRail: z.string(),
  sendingAmount: z.number().int(),
  minSendingAmount: z.number().int(),
  maxSendingAmount: z.number().int(),
  receivingAmount: z.number().int(),
  /** The contract's meaning: sending units per one receiving unit. */
  exchangeRate: z.number(),
  fees: z.looseObject({fixed: z.number().int().optional(), total: z.number().int().optional()}),
  updatedAt: z.string(),
})
export type ExchangeRate = z.infer<typeof exchangeRateSchema>
export const exchangeRateListSchema = z.looseObject({data: z.array(exchangeRateSchema)})

const paging = {limit: z.string().optional(), cursor: z.string().optional()}

export const umaProvidersQuery = z.strictObject({
  countryCode: countryCode.optional(),
  currencyCode: z
    .string()
    .regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, EUR ...)'})
    .optional(),
  hasBlockedProviders: z.enum(['true', 'false']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  ...paging,
})
export const vaspsQuery = z.strictObject(paging)
export const discoveriesQuery = z.strictObject({
  country: countryCode.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (PHP, MXN ...)'})
    .optional(),
})

export const umaProviderSchema = z.looseObject({
  name: z.string().optional(),
  domain: z.string().optional(),
  supportedRegions: z.array(z.string()).optional(),
  supportedCurrencies: z.array(currencySchema).optional(),
  lei: z.string().optional(),
  allowListStatus: z.boolean().optional(),
})
export const vaspSchema = z.looseObject({vaspName: z.string(), url: z.string().optional()})
export const institutionSchema = z.looseObject({
  bankName: z.string(),
  displayName: z.string(),
  country: z.string(),
  currency: z.string(),
})
export const institutionListSchema = z.looseObject({data: z.array(institutionSchema).optional()})
