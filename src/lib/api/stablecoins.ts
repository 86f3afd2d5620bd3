import type {z} from 'zod'
import {providerAccount, stablecoin, stablecoinOperation} from '../schemas/stablecoin-response.js'
import type {
  burnRequest,
  mintRequest,
  providerAccountLinkRequest,
  stablecoinRegisterRequest,
} from '../schemas/stablecoins.js'
import {apiRequest} from './request.js'
import {listRequest} from './paging.js'

/** Stablecoin issuance (openapi tag Stablecoins) and the enablement request (spec 3). */
export function linkProviderAccount(body: z.infer<typeof providerAccountLinkRequest>) {
  return apiRequest(
    {method: 'POST', path: ['stablecoin-provider-accounts'], body, idempotency: {}},
    providerAccount,
    'stablecoin provider account',
  )
}

export function listProviderAccounts(query: {provider?: string; status?: string}) {
  return listRequest(['stablecoin-provider-accounts'], query, providerAccount, 'stablecoin provider account list')
}

export function getProviderAccount(id: string) {
  return apiRequest(
    {method: 'GET', path: ['stablecoin-provider-accounts', id]},
    providerAccount,
    'stablecoin provider account',
  )
}

export function registerStablecoin(body: z.infer<typeof stablecoinRegisterRequest>) {
  return apiRequest({method: 'POST', path: ['stablecoins'], body, idempotency: {}}, stablecoin, 'stablecoin')
}

export function listStablecoins(query: {issuanceStatus?: string; gridOperationsStatus?: string; provider?: string}) {
  return listRequest(['stablecoins'], query, stablecoin, 'stablecoin list')
}

export function getStablecoin(id: string) {
  return apiRequest({method: 'GET', path: ['stablecoins', id]}, stablecoin, 'stablecoin')
}

export function requestEnablement(id: string) {
  return apiRequest({method: 'POST', path: ['stablecoins', id, 'enablement'], body: {}}, stablecoin, 'stablecoin')
}

/** Sandbox only: the operator's move of the enablement state. */
export function sandboxSetEnablement(id: string, status: string) {
  return apiRequest(
    {method: 'POST', path: ['sandbox', 'stablecoins', id, 'enablement'], body: {status}},
    stablecoin,
    'stablecoin',
  )
}

export function mintStablecoin(id: string, body: z.infer<typeof mintRequest>) {
  return apiRequest(
    {method: 'POST', path: ['stablecoins', id, 'mints'], body, idempotency: {}},
    stablecoinOperation,
    'stablecoin operation',
  )
}

export function burnStablecoin(id: string, body: z.infer<typeof burnRequest>) {
  return apiRequest(
    {method: 'POST', path: ['stablecoins', id, 'burns'], body, idempotency: {}},
    stablecoinOperation,
    'stablecoin operation',
  )
}

export function listOperations(id: string, query: {operationType?: string}) {
  return listRequest(['stablecoins', id, 'operations'], query, stablecoinOperation, 'stablecoin operation list')
}

export function getOperation(id: string) {
  return apiRequest({method: 'GET', path: ['stablecoin-operations', id]}, stablecoinOperation, 'stablecoin operation')
}

/** Sandbox only: the provider revoked (or invalidated) a link's credentials. */
export function sandboxSetProviderAccountStatus(id: string, status: string) {
  return apiRequest(
    {method: 'POST', path: ['sandbox', 'stablecoin-provider-accounts', id, 'status'], body: {status}},
    providerAccount,
    'stablecoin provider account',
  )
}
