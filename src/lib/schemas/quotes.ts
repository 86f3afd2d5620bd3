import * as z from 'zod'
import {currencySchema} from './amount.js'
import {idOf} from './ids.js'
import {scaFactor} from './sca.js'
import {CRYPTO_NETWORKS, PAYMENT_RAILS, PURPOSES} from './quote-enums.js'
import {umaAddress} from './uma-address.js'

export {CRYPTO_NETWORKS, PAYMENT_RAILS, PURPOSES} from './quote-enums.js'

export const quoteId = idOf('Quote')

export const currencyCode = z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, MXN, USDC ...)'})

export const quoteSource = z.discriminatedUnion('sourceType', [
  z.strictObject({
    sourceType: z.literal('ACCOUNT'),
    accountId: z.union([idOf('InternalAccount'), idOf('ExternalAccount')]),
    customerId: idOf('Customer').optional(),
  }),
  z.strictObject({
    sourceType: z.literal('REALTIME_FUNDING'),
    currency: currencyCode,
    customerId: idOf('Customer'),
    cryptoNetwork: z.enum(CRYPTO_NETWORKS).optional(),
  }),
])

export const quoteDestination = z.discriminatedUnion('destinationType', [
  z.strictObject({
    destinationType: z.literal('ACCOUNT'),
    accountId: z.union([idOf('InternalAccount'), idOf('ExternalAccount')]),
    paymentRail: z.enum(PAYMENT_RAILS).optional(),
  }),
  // api-gaps 4.2: an UMA address; `currency` picks one of the receiver's (its first when absent).
  z.strictObject({destinationType: z.literal('UMA_ADDRESS'), umaAddress, currency: currencyCode.optional()}),
])

export const platformFeeOverride = z.strictObject({
  platformFixedFee: z.strictObject({amount: z.number().int().min(0).max(9e15), currency: currencyCode}),
  platformVariableFeeBps: z.number().int().min(0).max(10000),
})

/** POST /quotes (spec 4.4, api-gaps 4.2). */
export const quoteCreateRequest = z
  .strictObject({
    source: quoteSource,
    destination: quoteDestination,
    lockedCurrencySide: z.enum(['SENDING', 'RECEIVING']),
    lockedCurrencyAmount: z.number().int().min(1, {message: 'must be at least 1 (smallest units)'}).max(9e15),
    immediatelyExecute: z.boolean().optional(),
    description: z.string().max(500).optional(),
    remittanceInformation: z.string().max(80).optional(),
    purposeOfPayment: z.enum(PURPOSES).optional(),
    platformFeeOverride: platformFeeOverride.optional(),
    /** From GET /receiver/uma/{address}; required for UMA destinations. */
    lookupId: z.string().min(1).max(200).optional(),
    /** The payer data the receiver asked for in the lookup (requiredPayerDataFields), by field name. */
    senderCustomerInfo: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.destination?.destinationType === 'UMA_ADDRESS' && q.lookupId === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['lookupId'],
        message: 'is required for an UMA destination (GET /receiver/uma/{address} gives it)',
      })
  })
export type QuoteCreateRequest = z.infer<typeof quoteCreateRequest>

/** POST /quotes/{quoteId}/execute: an optional body naming the SCA factor to be challenged with (api-gaps 10.1 #5). */
export const quoteExecuteRequest = z.strictObject({scaFactor: scaFactor.optional()})

export const quoteSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  source: z.looseObject({sourceType: z.string()}),
  destination: z.looseObject({destinationType: z.string()}),
  sendingCurrency: currencySchema,
  receivingCurrency: currencySchema,
  totalSendingAmount: z.number().int(),
  totalReceivingAmount: z.number().int(),
  exchangeRate: z.number(),
  feesIncluded: z.number().int(),
  platformFeesIncluded: z.number().int().optional(),
  paymentInstructions: z
    .array(z.looseObject({accountOrWalletInfo: z.looseObject({accountType: z.string()})}))
    .optional(),
  transactionId: z.string().optional(),
  description: z.string().optional(),
})
export type Quote = z.infer<typeof quoteSchema>
