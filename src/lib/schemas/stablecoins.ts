import {z} from 'zod'
import {idOf} from './common.js'

/** Stablecoin issuance (openapi Stablecoin*): provider links, registered coins, mint/burn operations. */
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

/** An amount in the stablecoin's smallest unit, as the API carries it: a string of digits. */
export const stablecoinAmount = z
  .string()
  .regex(/^[0-9]{1,30}$/, {message: "must be a whole number of the stablecoin's smallest unit, as digits"})

export const providerAccountLinkRequest = z.strictObject({
  provider: z.enum(STABLECOIN_PROVIDERS),
  apiClientId: z.string().min(1).max(255),
  apiClientSecret: z.string().min(1).max(1024),
  providerAccountId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, {message: 'must be a provider account id (letters, digits, _ -)'})
    .optional(),
})

export const stablecoinRegisterRequest = z.strictObject({
  providerTokenIdentifier: z.string().regex(/^[A-Z]{3,5}$/, {
    message: 'must be 3-5 capital letters (it becomes the stablecoin symbol and the Service currency code)',
  }),
  networkTokenIdentifier: z
    .string()
    .regex(/^[A-Za-z0-9]{8,128}$/, {message: 'must be a token identifier (8-128 letters and digits)'}),
  network: z.literal('L2'),
  stablecoinProviderAccountId: idOf('StablecoinProviderAccount').optional(),
})

const accountRef = z.string().regex(/^(ExternalAccount|InternalAccount):[A-Za-z0-9_-]{1,128}$/, {
  message: 'must be an ExternalAccount or InternalAccount id',
})

export const mintFundingSource = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('WIRE')}),
  z.strictObject({type: z.literal('ACH_DEBIT'), externalAccountId: idOf('ExternalAccount')}),
  z.strictObject({type: z.literal('SAME_DAY_ACH_DEBIT'), externalAccountId: idOf('ExternalAccount')}),
  z.strictObject({type: z.literal('GRID_INTERNAL_ACCOUNT'), accountId: idOf('InternalAccount')}),
  z.strictObject({
    type: z.literal('PROVIDER_INTERNAL_BALANCE'),
    sourceTokenIdentifier: z.string().min(1).max(32),
    cryptoNetwork: z.string().min(1).max(32),
  }),
])

export const mintRequest = z.strictObject({
  amount: stablecoinAmount,
  fundingSource: mintFundingSource,
  destination: z.strictObject({accountId: accountRef}),
  description: z.string().max(1024).optional(),
})
export type MintRequest = z.infer<typeof mintRequest>

export const burnSource = z.discriminatedUnion('type', [
  z.strictObject({type: z.literal('EXTERNAL_ACCOUNT')}),
  z.strictObject({type: z.literal('GRID_INTERNAL_ACCOUNT'), accountId: idOf('InternalAccount')}),
  z.strictObject({type: z.literal('PROVIDER_INTERNAL_BALANCE')}),
])

export const burnRequest = z.strictObject({
  amount: stablecoinAmount,
  source: burnSource,
  destination: z.strictObject({
    type: z.literal('EXTERNAL_ACCOUNT'),
    externalAccountId: idOf('ExternalAccount'),
    rail: z.enum(PAYOUT_RAILS),
  }),
  description: z.string().max(1024).optional(),
})
export type BurnRequest = z.infer<typeof burnRequest>

/** Sandbox only: the operator moves a stablecoin's enablement (POST /sandbox/stablecoins/{id}/enablement). */
export const operatorEnablementRequest = z.strictObject({status: z.enum(OPERATOR_STATUSES)})
/** Sandbox only: the provider side of a link changes (credentials revoked or no longer valid). */
export const providerAccountStatusRequest = z.strictObject({status: z.enum(PROVIDER_ACCOUNT_STATUSES)})

const paging = {limit: z.string().optional(), cursor: z.string().optional()}
export const stablecoinListQuery = z.strictObject({
  issuanceStatus: z.enum(ISSUANCE_STATUSES).optional(),
  gridOperationsStatus: z.enum(OPERATIONS_STATUSES).optional(),
  provider: z.enum(STABLECOIN_PROVIDERS).optional(),
  ...paging,
})
export const providerAccountListQuery = z.strictObject({
  provider: z.enum(STABLECOIN_PROVIDERS).optional(),
  status: z.enum(PROVIDER_ACCOUNT_STATUSES).optional(),
  ...paging,
})
export const operationListQuery = z.strictObject({operationType: z.enum(OPERATION_TYPES).optional(), ...paging})

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
