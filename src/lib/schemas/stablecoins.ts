import * as z from 'zod'
import {idOf} from './common.js'
import {
  ISSUANCE_STATUSES,
  OPERATION_TYPES,
  OPERATIONS_STATUSES,
  OPERATOR_STATUSES,
  PAYOUT_RAILS,
  PROVIDER_ACCOUNT_STATUSES,
  STABLECOIN_PROVIDERS,
} from './stablecoin-response.js'

/** Stablecoin issuance (openapi Stablecoin*): provider links, registered coins, mint/burn operations. */

// The value lists and the answers live in stablecoin-response.ts, so `stablecoins list` does not build
// the request schemas below; re-exported for the sandbox and the other commands.
export * from './stablecoin-response.js'

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
