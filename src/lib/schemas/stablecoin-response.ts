import * as z from 'zod'

// Stablecoin value lists and answers (loose): what `stablecoins list` and the other reads need,
// without the request schemas of stablecoins.ts.

export const STABLECOIN_PROVIDERS = ['BRALE'] as const
export const PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const
export const ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const
/** Spec 3 "Stablecoin the service enablement". */
export const OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const
/** States only the operator moves a stablecoin to (the sandbox control route drives them). */
export const OPERATOR_STATUSES = ['ENABLING', 'ENABLED', 'DISABLED'] as const
export const OPERATION_TYPES = ['MINT', 'BURN'] as const
export const MINT_FUNDING_TYPES = [
  'WIRE',
  'ACH_DEBIT',
  'SAME_DAY_ACH_DEBIT',
  'GRID_INTERNAL_ACCOUNT',
  'PROVIDER_INTERNAL_BALANCE',
] as const
export const BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const
export const PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const

export const providerAccount = z.looseObject({
  id: z.string(),
  provider: z.string(),
  providerAccountId: z.string(),
  providerEnvironment: z.string(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export const stablecoin = z.looseObject({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  baseCurrency: z.string(),
  decimals: z.number().int(),
  issuanceStatus: z.string(),
  gridOperationsStatus: z.string(),
  networkTokenIdentifier: z.string(),
  stablecoinProviderAccountId: z.string(),
  currency: z.string().optional(),
  createdAt: z.string(),
})
export const stablecoinOperation = z.looseObject({
  id: z.string(),
  stablecoinId: z.string(),
  operationType: z.string(),
  status: z.string(),
  amount: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Stablecoin = z.infer<typeof stablecoin>
export type StablecoinOperation = z.infer<typeof stablecoinOperation>
