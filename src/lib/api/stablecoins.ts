import type {z} from 'zod'
import {
  providerAccount,
  stablecoin,
  stablecoinOperation,
  type burnRequest,
  type mintRequest,
  type providerAccountLinkRequest,
  type stablecoinRegisterRequest,
} from '../schemas/stablecoins.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

/** Stablecoin issuance (openapi tag Stablecoins) and the enablement request (spec 3). */
export function linkProviderAccount(body: z.infer<typeof providerAccountLinkRequest>) {
  return apiRequest(
    {method: 'POST', path: ['stablecoin-provider-accounts'], body, idempotency: {}},
    providerAccount,
    'stablecoin provider account',
  )
}

export async function listProviderAccounts(
  client: ApiClient,
  query: {provider?: string; status?: string},
  page: PageOptions,
) {
  return listPaged(
    client,
    ['stablecoin-provider-accounts'],
    query,
    providerAccount,
    page,
    'stablecoin provider account list',
  )
}

export async function getProviderAccount(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoin-provider-accounts', id]})
  return client.parse(providerAccount, res.body, 'stablecoin provider account')
}

export function registerStablecoin(body: z.infer<typeof stablecoinRegisterRequest>) {
  return apiRequest({method: 'POST', path: ['stablecoins'], body, idempotency: {}}, stablecoin, 'stablecoin')
}

export async function listStablecoins(
  client: ApiClient,
  query: {issuanceStatus?: string; gridOperationsStatus?: string; provider?: string},
  page: PageOptions,
) {
  return listPaged(client, ['stablecoins'], query, stablecoin, page, 'stablecoin list')
}

export async function getStablecoin(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoins', id]})
  return client.parse(stablecoin, res.body, 'stablecoin')
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

export async function listOperations(
  client: ApiClient,
  id: string,
  query: {operationType?: string},
  page: PageOptions,
) {
  return listPaged(
    client,
    ['stablecoins', id, 'operations'],
    query,
    stablecoinOperation,
    page,
    'stablecoin operation list',
  )
}

export async function getOperation(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoin-operations', id]})
  return client.parse(stablecoinOperation, res.body, 'stablecoin operation')
}

/** Sandbox only: the provider revoked (or invalidated) a link's credentials. */
export function sandboxSetProviderAccountStatus(id: string, status: string) {
  return apiRequest(
    {method: 'POST', path: ['sandbox', 'stablecoin-provider-accounts', id, 'status'], body: {status}},
    providerAccount,
    'stablecoin provider account',
  )
}
