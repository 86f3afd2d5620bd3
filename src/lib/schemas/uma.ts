import * as z from 'zod'
import {idOf} from './ids.js'
import {umaAddress} from './uma-address.js'

export {UMA_ADDRESS, umaAddress} from './uma-address.js'
const currencyCode = z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, EUR ...)'})

/** The sandbox's counterparty senders and receivers (sandbox-behaviour 11). */
export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money'

/** POST /sandbox/uma/receive (sandbox-behaviour 11): exactly one of receiverUmaAddress or customerId. */
export const sandboxUmaReceiveRequest = z
  .strictObject({
    senderUmaAddress: umaAddress,
    receiverUmaAddress: umaAddress.optional(),
    customerId: idOf('Customer').optional(),
    receivingCurrencyCode: currencyCode,
    receivingCurrencyAmount: z
      .number()
      .int({message: 'must be a whole number of smallest units'})
      .positive()
      .max(100_000_000_000),
  })
  .superRefine((b, ctx) => {
    const both = b.receiverUmaAddress !== undefined && b.customerId !== undefined
    const neither = b.receiverUmaAddress === undefined && b.customerId === undefined
    if (both || neither)
      ctx.addIssue({
        code: 'custom',
        path: ['receiverUmaAddress'],
        message: both
          ? 'give receiverUmaAddress or customerId, not both'
          : 'give receiverUmaAddress or customerId (exactly one)',
      })
  })
export type SandboxUmaReceiveRequest = z.infer<typeof sandboxUmaReceiveRequest>

/** Who is asking, for the receiver look-ups: senderUmaAddress or customerId (customerId decides when both come). */
export const receiverLookupQuery = z
  .strictObject({senderUmaAddress: umaAddress.optional(), customerId: idOf('Customer').optional()})
  .superRefine((q, ctx) => {
    if (q.senderUmaAddress === undefined && q.customerId === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: 'give customerId or senderUmaAddress: who is sending',
      })
  })

export const currencyPreferenceSchema = z.looseObject({
  currency: z.looseObject({code: z.string(), decimals: z.number().optional()}),
  estimatedExchangeRate: z.number(),
  min: z.number().int(),
  max: z.number().int(),
})

export const receiverLookupSchema = z.looseObject({
  lookupId: z.string(),
  receiverUmaAddress: z.string().optional(),
  accountId: z.string().optional(),
  supportedCurrencies: z.array(currencyPreferenceSchema),
  requiredPayerDataFields: z.array(z.looseObject({name: z.string(), mandatory: z.boolean()})).optional(),
})
export type ReceiverLookup = z.infer<typeof receiverLookupSchema>
