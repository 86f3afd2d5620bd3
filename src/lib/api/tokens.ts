import {apiToken, type TokenCreateRequest} from '../schemas/tokens.js'
import type {ApiClient, ApiRequest} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

/** API tokens (openapi /tokens). */
export function createToken(body: TokenCreateRequest) {
  return apiRequest({method: 'POST', path: ['tokens'], body}, apiToken, 'API token')
}

export async function listTokens(client: ApiClient, query: {name?: string}, page: PageOptions) {
  return listPaged(client, ['tokens'], query, apiToken, page, 'API token list')
}

export async function getToken(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['tokens', id]})
  return client.parse(apiToken, res.body, 'API token')
}

export function deleteToken(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['tokens', id]}
}
