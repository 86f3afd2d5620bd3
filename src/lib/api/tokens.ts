import {apiToken, type TokenCreateRequest} from '../schemas/tokens.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'

/** API tokens (openapi /tokens). */
export async function createToken(client: ApiClient, body: TokenCreateRequest) {
  const res = await client.request({method: 'POST', path: ['tokens'], body})
  return client.parse(apiToken, res.body, 'API token')
}

export async function listTokens(client: ApiClient, query: {name?: string}, page: PageOptions) {
  return listPaged(client, ['tokens'], query, apiToken, page, 'API token list')
}

export async function getToken(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['tokens', id]})
  return client.parse(apiToken, res.body, 'API token')
}

export async function deleteToken(client: ApiClient, id: string): Promise<void> {
  await client.request({method: 'DELETE', path: ['tokens', id]})
}
