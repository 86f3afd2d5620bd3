import {type AuthzEntry, READ, TRANSACT, MANAGE, op, own} from './build.js'

/** Stablecoins */
export const STABLECOINS: readonly AuthzEntry[] = [
  op('GET', '/stablecoins', 'listStablecoins', READ),
  op('POST', '/stablecoins', 'registerStablecoin', MANAGE),
  op('GET', '/stablecoins/{stablecoinId}', 'getStablecoin', READ),
  own(
    'POST',
    '/stablecoins/{stablecoinId}/enablement',
    MANAGE,
    'The enablement request (spec 3 names it, the contract has no path for it): platform config.',
  ),
  op('POST', '/stablecoins/{stablecoinId}/mints', 'createStablecoinMint', TRANSACT),
  op('POST', '/stablecoins/{stablecoinId}/burns', 'createStablecoinBurn', TRANSACT),
  op('GET', '/stablecoins/{stablecoinId}/operations', 'listStablecoinOperations', READ),
  op('GET', '/stablecoin-operations/{stablecoinOperationId}', 'getStablecoinOperation', READ),
  op('GET', '/stablecoin-provider-accounts', 'listStablecoinProviderAccounts', READ),
  op('POST', '/stablecoin-provider-accounts', 'linkStablecoinProviderAccount', MANAGE),
  op('GET', '/stablecoin-provider-accounts/{stablecoinProviderAccountId}', 'getStablecoinProviderAccount', READ),
]
