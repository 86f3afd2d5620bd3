import type {z} from 'zod'
import {providerAccount, stablecoin, stablecoinOperation, type burnRequest, type mintRequest, type providerAccountLinkRequest, type stablecoinRegisterRequest} from '../schemas/stablecoins.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'

/** Stablecoin issuance (openapi tag Stablecoins) and the enablement request (spec 3). */
export async function linkProviderAccount(client: ApiClient, body: z.infer<typeof providerAccountLinkRequest>, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['stablecoin-provider-accounts'], body, idempotencyKey})
  return client.parse(providerAccount, res.body, 'stablecoin provider account')
}

export async function listProviderAccounts(client: ApiClient, query: {provider?: string; status?: string}, page: PageOptions) {
  return listPaged(client, ['stablecoin-provider-accounts'], query, providerAccount, page, 'stablecoin provider account list')
}

export async function getProviderAccount(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoin-provider-accounts', id]})
  return client.parse(providerAccount, res.body, 'stablecoin provider account')
}

export async function registerStablecoin(client: ApiClient, body: z.infer<typeof stablecoinRegisterRequest>, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['stablecoins'], body, idempotencyKey})
  return client.parse(stablecoin, res.body, 'stablecoin')
}

export async function listStablecoins(client: ApiClient, query: {issuanceStatus?: string; gridOperationsStatus?: string; provider?: string}, page: PageOptions) {
  return listPaged(client, ['stablecoins'], query, stablecoin, page, 'stablecoin list')
}

export async function getStablecoin(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoins', id]})
  return client.parse(stablecoin, res.body, 'stablecoin')
}

export async function requestEnablement(client: ApiClient, id: string) {
  const res = await client.request({method: 'POST', path: ['stablecoins', id, 'enablement'], body: {}})
  return client.parse(stablecoin, res.body, 'stablecoin')
}

/** Sandbox only: the operator's move of the enablement state. */
export async function sandboxSetEnablement(client: ApiClient, id: string, status: string) {
  const res = await client.request({method: 'POST', path: ['sandbox', 'stablecoins', id, 'enablement'], body: {status}})
  return client.parse(stablecoin, res.body, 'stablecoin')
}

export async function mintStablecoin(client: ApiClient, id: string, body: z.infer<typeof mintRequest>, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['stablecoins', id, 'mints'], body, idempotencyKey})
  return client.parse(stablecoinOperation, res.body, 'stablecoin operation')
}

export async function burnStablecoin(client: ApiClient, id: string, body: z.infer<typeof burnRequest>, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['stablecoins', id, 'burns'], body, idempotencyKey})
  return client.parse(stablecoinOperation, res.body, 'stablecoin operation')
}

export async function listOperations(client: ApiClient, id: string, query: {operationType?: string}, page: PageOptions) {
  return listPaged(client, ['stablecoins', id, 'operations'], query, stablecoinOperation, page, 'stablecoin operation list')
}

export async function getOperation(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['stablecoin-operations', id]})
  return client.parse(stablecoinOperation, res.body, 'stablecoin operation')
}

/** Sandbox only: the provider revoked (or invalidated) a link's credentials. */
export async function sandboxSetProviderAccountStatus(client: ApiClient, id: string, status: string) {
  const res = await client.request({method: 'POST', path: ['sandbox', 'stablecoin-provider-accounts', id, 'status'], body: {status}})
  return client.parse(providerAccount, res.body, 'stablecoin provider account')
}
