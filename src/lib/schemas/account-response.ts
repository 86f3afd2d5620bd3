import * as z from 'zod'
import {currencyAmountSchema} from './amount.js'

// Account answers only (loose): what the account commands read, without the request schemas,
// account checks and country list of accounts.ts.

const paymentInstruction = z.looseObject({
  instructionsNotes: z.string().optional(),
  accountOrWalletInfo: z.looseObject({accountType: z.string()}),
})
export type PaymentInstruction = z.infer<typeof paymentInstruction>

export const internalAccountSchema = z.looseObject({
  id: z.string(),
  customerId: z.string().optional(),
  type: z.string().optional(),
  status: z.string().optional(),
  balance: currencyAmountSchema,
  totalBalance: currencyAmountSchema,
  fundingPaymentInstructions: z.array(paymentInstruction).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
})
export type InternalAccountView = z.infer<typeof internalAccountSchema>

export const externalAccountSchema = z.looseObject({
  id: z.string(),
  customerId: z.string().optional(),
  status: z.string(),
  currency: z.string(),
  platformAccountId: z.string().optional(),
  ownershipType: z.string().optional(),
  beneficiaryVerificationStatus: z.string().optional(),
  trusted: z.boolean().optional(),
  accountInfo: z.looseObject({accountType: z.string()}),
  createdAt: z.string().optional(),
})
export type ExternalAccountView = z.infer<typeof externalAccountSchema>

export const ownershipChallengeSchema = z.looseObject({
  method: z.enum(['WALLET_SIGNATURE', 'LIVENESS']),
  messageToSign: z.string().optional(),
  verificationLink: z.string().optional(),
  token: z.string().optional(),
  expiresAt: z.string(),
})
export type OwnershipChallenge = z.infer<typeof ownershipChallengeSchema>
