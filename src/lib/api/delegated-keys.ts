import {delegatedKey, delegatedKeyList, type DelegatedKeyCreateRequest} from '../schemas/delegated-keys.js'
import type {SignedOperation} from '../wallet/signed-retry.js'
import {apiRequest, type ApiRequest} from './request.js'

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

/** One answer, not paged: the keys are in `data`. */
export function listDelegatedKeys(query: {accountId?: string; fundingSourceId?: string}) {
  return apiRequest({method: 'GET', path: ['auth', 'delegated-keys'], query}, delegatedKeyList, 'delegated key list')
}

export function getDelegatedKey(id: string) {
  return apiRequest({method: 'GET', path: ['auth', 'delegated-keys', id]}, delegatedKey, 'delegated key')
}

export function revokeDelegatedKey(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['auth', 'delegated-keys', id]}
}

export {delegatedKey as delegatedKeySchema}
