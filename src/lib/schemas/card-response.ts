import * as z from 'zod'
import {currencyAmountSchema} from './amount.js'

// Card value lists and answers, without the request schemas of cards.ts.

export const CARD_STATES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const
export type CardState = (typeof CARD_STATES)[number]
/** Status tracks settlement only (spec: no REFUNDED; VOIDED after an authorization expiry). */
export const CARD_TRANSACTION_STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'VOIDED', 'EXCEPTION'] as const
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number]

/** Responses (loose: the Service may add fields). */
export const cardSchema = z.looseObject({
  id: z.string(),
  cardholderId: z.string(),
  platformCardId: z.string().optional(),
  state: z.string(),
  stateReason: z.string().nullable().optional(),
  brand: z.string().optional(),
  form: z.string(),
  last4: z.string().optional(),
  expMonth: z.number().int().optional(),
  expYear: z.number().int().optional(),
  fundingSources: z.array(z.string()),
  maxSpendPerTransaction: z.number().int().nullable(),
  currency: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Card = z.infer<typeof cardSchema>

export const cardTransactionSchema = z.looseObject({
  type: z.literal('CARD'),
  id: z.string(),
  cardId: z.string().optional(),
  status: z.string(),
  direction: z.string(),
  merchant: z.looseObject({descriptor: z.string()}),
  authorizedAmount: currencyAmountSchema,
  settledAmount: currencyAmountSchema.optional(),
  refundedAmount: currencyAmountSchema.optional(),
  accountId: z.string(),
  customerId: z.string(),
  issuerTransactionToken: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type CardTransaction = z.infer<typeof cardTransactionSchema>

export const cardRevealSchema = z.looseObject({panEmbedUrl: z.string(), expiresAt: z.string()})
export const cardSimulationResponse = z.looseObject({issuerTransactionToken: z.string()})
