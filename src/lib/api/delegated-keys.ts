import {delegatedKey, delegatedKeyList, type DelegatedKeyCreateRequest} from '../schemas/delegated-keys.js'
import type {SignedOperation} from '../wallet/signed-retry.js'
import type {ApiClient, ApiRequest} from './client.js'

/** Delegated wallet keys (api-gaps 5.7). Create is a three-leg signed retry: see workflows/delegated-keys.ts. */
export const createDelegatedKeyOp = (body: DelegatedKeyCreateRequest): SignedOperation => ({
  method: 'POST',
  path: ['auth', 'delegated-keys'],
  body,
  success: 'created',
  signedLegs: 2,
  walletSignature: {accountId: body.internalAccountId},
  what: `creation of a delegated key for ${body.cardId}`,
  resume: `Check \`svc wallet delegated-keys list --account ${body.internalAccountId}\`: an abandoned creation stays PENDING and does not block a new one.`,
})

export async function listDelegatedKeys(client: ApiClient, query: {accountId?: string; fundingSourceId?: string}) {
  const res = await client.request({method: 'GET', path: ['auth', 'delegated-keys'], query})
  return client.parse(delegatedKeyList, res.body, 'delegated key list').data
}

export async function getDelegatedKey(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['auth', 'delegated-keys', id]})
  return client.parse(delegatedKey, res.body, 'delegated key')
}

export function revokeDelegatedKey(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['auth', 'delegated-keys', id]}
}

export {delegatedKey as delegatedKeySchema}
