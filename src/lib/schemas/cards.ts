import * as z from 'zod'
import {countryCode, idOf} from './common.js'
import {CARD_TRANSACTION_STATUSES} from './card-response.js'

// The value lists and answers live in card-response.ts and the list filter in card-query.ts, so
// `cards list` does not build the request schemas below; re-exported for the sandbox and the others.
export * from './card-response.js'
export * from './card-query.js'

/** Cards and card transactions (spec 3 "Card", "Card transaction"; openapi Card*, Sandbox*Card*): one source for CLI and sandbox. */
export const cardId = idOf('Card')
export const cardTransactionId = idOf('CardTransaction')

/** The ten sandbox simulators, plus authorization_expiry (spec 4.5 names it; sandbox-behaviour 18.9). */
export const CARD_SIMULATORS = [
  'authorization',
  'authorization_advice',
  'balance_inquiry',
  'clearing',
  'credit_authorization',
  'credit_authorization_advice',
  'financial_authorization',
  'financial_credit_authorization',
  'return',
  'return_reversal',
  'authorization_expiry',
  'exception_resolution',
] as const
export type CardSimulator = (typeof CARD_SIMULATORS)[number]

const minor = z.number().int().max(9e15)
const positiveMinor = minor.min(1, {message: 'must be a positive whole number of smallest units'})

export const cardCreateRequest = z.strictObject({
  cardholderId: idOf('Customer'),
  platformCardId: z.string().min(1).max(100).optional(),
  threeDSecurePassword: z.string().min(8).max(64).optional(),
  form: z.literal('VIRTUAL'),
  fundingSources: z.array(idOf('InternalAccount')).min(1, {message: 'needs at least one internal account'}).max(10),
  maxSpendPerTransaction: positiveMinor.optional(),
})
export type CardCreateRequest = z.infer<typeof cardCreateRequest>

export const cardUpdateRequest = z
  .strictObject({
    state: z.enum(['ACTIVE', 'FROZEN', 'CLOSED']).optional(),
    fundingSources: z.array(idOf('InternalAccount')).min(1).max(10).optional(),
    maxSpendPerTransaction: positiveMinor.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.state === undefined && v.fundingSources === undefined && v.maxSpendPerTransaction === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'give at least one of state, fundingSources, maxSpendPerTransaction',
      })
    if (v.state === 'CLOSED' && (v.fundingSources !== undefined || v.maxSpendPerTransaction !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'CLOSED cannot be combined with fundingSources or maxSpendPerTransaction',
      })
  })
export type CardUpdateRequest = z.infer<typeof cardUpdateRequest>

/**
 * `cards transactions list`: GET /transactions takes customerId, accountIdentifier and sortOrder; the
 * card, CARD type and card status are picked from its answers (the published query has no such filters).
 */
export const cardTransactionFilter = z.strictObject({
  cardId: cardId.optional(),
  customerId: idOf('Customer').optional(),
  accountIdentifier: idOf('InternalAccount').optional(),
  status: z.enum(CARD_TRANSACTION_STATUSES).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
})
export type CardTransactionFilter = z.infer<typeof cardTransactionFilter>

export const cardMerchant = z.strictObject({
  descriptor: z.string().min(1).max(100),
  mcc: z
    .string()
    .regex(/^\d{4}$/, {message: 'must be a four-digit merchant category code'})
    .optional(),
  country: countryCode.optional(),
})

const currencyRef = z.looseObject({code: z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD)'})})

/** Request bodies of the simulators, by simulator. */
export const cardSimulationBodies = {
  authorization: z.strictObject({amount: positiveMinor, currency: currencyRef, merchant: cardMerchant}),
  balance_inquiry: z.strictObject({merchant: cardMerchant}),
  clearing: z.strictObject({cardTransactionId, amount: minor.min(0, {message: 'must be 0 or more smallest units'})}),
  authorization_advice: z.strictObject({cardTransactionId, amount: positiveMinor}),
  return: z.strictObject({cardTransactionId, amount: positiveMinor}),
  return_reversal: z.strictObject({cardTransactionId}),
  authorization_expiry: z.strictObject({cardTransactionId}),
  exception_resolution: z.strictObject({cardTransactionId, resolution: z.enum(['SETTLE', 'RETURN'])}),
} as const
const authFamily = cardSimulationBodies.authorization
export function cardSimulationBody(kind: CardSimulator) {
  return kind in cardSimulationBodies ? cardSimulationBodies[kind as keyof typeof cardSimulationBodies] : authFamily
}
