import * as z from 'zod'
import {idOf} from './ids.js'
import {PAYMENT_RAILS, PURPOSES} from './quote-enums.js'
import {currencyCode} from './quotes.js'

/** Deprecated same-currency endpoints, kept with their old shapes (api-gaps 4.5). */
export const transferOutRequest = z.strictObject({
  source: z.strictObject({accountId: idOf('InternalAccount')}),
  destination: z.strictObject({accountId: idOf('ExternalAccount'), paymentRail: z.enum(PAYMENT_RAILS).optional()}),
  amount: z.number().int().min(1).max(9e15),
  remittanceInformation: z.string().max(80).optional(),
  purposeOfPayment: z.enum(PURPOSES).optional(),
})
export const transferInRequest = z.strictObject({
  source: z.strictObject({accountId: idOf('ExternalAccount')}),
  destination: z.strictObject({accountId: idOf('InternalAccount')}),
  amount: z.number().int().min(1).max(9e15),
})

export const sandboxSendRequest = z.strictObject({
  quoteId: idOf('Quote'),
  currencyCode: currencyCode,
  currencyAmount: z.number().int().min(1).max(9e15).optional(),
})
