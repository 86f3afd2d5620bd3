import {type AuthzEntry, READ, MANAGE, op} from './build.js'

/** Platform configuration, reference data */
export const PLATFORM: readonly AuthzEntry[] = [
  op('GET', '/config', 'getPlatformConfig', READ),
  op('PATCH', '/config', 'updatePlatformConfig', MANAGE, {
    note: 'Includes the sandbox settings (legacySignatures, faults, delays): they are platform config.',
  }),
  op('GET', '/exchange-rates', 'getExchangeRates', READ),
  op('GET', '/discoveries', 'getDiscoveries', READ),
  op('GET', '/uma-providers', 'getAvailableUmaProviders', READ),
  op('GET', '/vasps', 'listVasps', READ),
]
