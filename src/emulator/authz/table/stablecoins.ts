import {type AuthzEntry, READ, TRANSACT, MANAGE, op, own} from './build.js'

/** Stablecoins */
export const STABLECOINS: readonly AuthzEntry[] = [
  op('GET', '/stablecoins', 'listStablecoins', READ),
  op('POST', '/stablecoins', 'registerStablecoin', MANAGE, {idempotency: {scope: 'stablecoins', required: true}}),
  op('GET', '/stablecoins/{stablecoinId}', 'getStablecoin', READ),
  own(
    'POST',
    '/stablecoins/{stablecoinId}/enablement',
    MANAGE,
    'The enablement request (spec 3 names it, the contract has no path for it): platform config.',
  ),
  op('POST', '/stablecoins/{stablecoinId}/mints', 'createStablecoinMint', TRANSACT, {
    idempotency: {scope: 'mint|{stablecoinId}', required: true},
  }),
  op('POST', '/stablecoins/{stablecoinId}/burns', 'createStablecoinBurn', TRANSACT, {
    idempotency: {scope: 'burn|{stablecoinId}', required: true},
  }),
  op('GET', '/stablecoins/{stablecoinId}/operations', 'listStablecoinOperations', READ),
  op('GET', '/stablecoin-operations/{stablecoinOperationId}', 'getStablecoinOperation', READ),
  op('GET', '/stablecoin-provider-accounts', 'listStablecoinProviderAccounts', READ),
  op('POST', '/stablecoin-provider-accounts', 'linkStablecoinProviderAccount', MANAGE, {
    idempotency: {scope: 'stablecoin-provider-accounts', required: true},
  }),
  op('GET', '/stablecoin-provider-accounts/{stablecoinProviderAccountId}', 'getStablecoinProviderAccount', READ),
]
