import * as z from 'zod'
import {idOf} from './ids.js'
import {PAYMENT_RAILS, PURPOSES} from './quote-enums.js'
import {currencyCode} from './quotes.js'

const amount = z.number().int().min(1).max(9e15)

/**
 * POST /transfer-out and /transfer-in (api-gaps 4.5): `amount` is optional, as in the contract;
 * without it the whole balance moves (emulator/domain/transfers.ts says which balance).
 */
export const platformTransferOutRequest = z.strictObject({
  source: z.strictObject({accountId: idOf('InternalAccount')}),
  destination: z.strictObject({accountId: idOf('ExternalAccount'), paymentRail: z.enum(PAYMENT_RAILS).optional()}),
  amount: amount.optional(),
  remittanceInformation: z.string().max(80).optional(),
  purposeOfPayment: z.enum(PURPOSES).optional(),
})
export const platformTransferInRequest = z.strictObject({
  source: z.strictObject({accountId: idOf('ExternalAccount')}),
  destination: z.strictObject({accountId: idOf('InternalAccount')}),
  amount: amount.optional(),
})

/** An agent's transfer names its amount: the policy limits and the platform's approval are of a sum. */
export const transferOutRequest = platformTransferOutRequest.extend({amount})
export const transferInRequest = platformTransferInRequest.extend({amount})

export const sandboxSendRequest = z.strictObject({
  quoteId: idOf('Quote'),
  currencyCode: currencyCode,
  currencyAmount: z.number().int().min(1).max(9e15).optional(),
})
