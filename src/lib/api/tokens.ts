import {apiToken} from '../schemas/token-response.js'
import type {TokenCreateRequest} from '../schemas/tokens.js'
import {apiRequest, type ApiRequest} from './request.js'
import {listRequest} from './paging.js'

/** API tokens (openapi /tokens). */
export function createToken(body: TokenCreateRequest) {
  return apiRequest({method: 'POST', path: ['tokens'], body}, apiToken, 'API token')
}

export function listTokens(query: {name?: string}) {
  return listRequest(['tokens'], query, apiToken, 'API token list')
}

export function getToken(id: string) {
  return apiRequest({method: 'GET', path: ['tokens', id]}, apiToken, 'API token')
}

export function deleteToken(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['tokens', id]}
}
