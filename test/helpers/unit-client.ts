import type {Dispatcher} from 'undici'
import {ApiClient} from '../../src/lib/api/client.js'
import {Secret} from '../../src/lib/secret.js'

/** Where the unit tests' API client points (an undici MockAgent answers it). */
export const UNIT_ORIGIN = 'http://api.test'
export const UNIT_BASE = `${UNIT_ORIGIN}/2025-10-13`

/** The shared API client against a MockAgent: no real sleeps, a fixed jitter unless `extra` says otherwise. */
export function unitClient(
  dispatcher: Dispatcher,
  extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
): ApiClient {
  return new ApiClient({
    baseUrl: UNIT_BASE,
    tokenId: 'tok_1',
    secret: new Secret('sk_unit_secret'),
    timeoutMs: 2000,
    userAgent: 'svc-test',
    dispatcher,
    sleep: async () => {},
    random: () => 0.5,
    ...extra,
  })
}
