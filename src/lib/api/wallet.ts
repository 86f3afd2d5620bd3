import * as z from 'zod'
import {authMethodList, authSessionList, quorumPublicKeyResponse} from '../schemas/wallet.js'
import type {SignedOperation} from '../wallet/signed-retry.js'
import {withArticle} from '../article.js'
import {apiRequest} from './request.js'

/**
 * Embedded-wallet endpoints (spec 4.6, api-gaps 5). Response schemas are loose on purpose: the
 * spec leaves many fields open. Signed endpoints are described as SignedOperation values and run
 * through the signed-retry engine.
 */
export {CREDENTIAL_TYPES, type AuthMethod, type AuthSession, type CredentialType} from '../schemas/wallet.js'
export {
  authMethod as authMethodSchema,
  authSession as authSessionSchema,
  passkeyAuthChallenge as passkeyChallengeSchema,
  walletExportResponse as exportResponseSchema,
} from '../schemas/wallet.js'

const listOf = <S extends z.ZodType>(item: S) => z.looseObject({data: z.array(item)})

/** One answer, not paged: the credentials are in `data`. */
export function listCredentials(accountId: string) {
  return apiRequest(
    {method: 'GET', path: ['auth', 'credentials'], query: {accountId}},
    authMethodList,
    'credential list',
  )
}

/** One answer, not paged: the sessions are in `data`. */
export function listSessions(accountId: string) {
  return apiRequest({method: 'GET', path: ['auth', 'sessions'], query: {accountId}}, authSessionList, 'session list')
}

/** The quorum key the local sandbox signs its bundles with (local environment only). */
export function sandboxQuorumKey() {
  return apiRequest(
    {method: 'GET', path: ['sandbox', 'quorum-public-key']},
    quorumPublicKeyResponse,
    'sandbox quorum key',
  )
}

/**
 * A customer's EMBEDDED_WALLET internal accounts (no GET by id exists: api-gaps 3.1); one page of
 * 100, and an item without a type is kept (see `embeddedWalletIds`).
 */
export function embeddedWalletsOf(customerId: string) {
  return apiRequest(
    {
      method: 'GET',
      path: ['customers', 'internal-accounts'],
      query: {customerId, type: 'EMBEDDED_WALLET', limit: 100},
    },
    listOf(z.looseObject({id: z.string(), type: z.string().optional()})),
    'internal account list',
  )
}

/** The wallets' ids from an `embeddedWalletsOf` answer (a server that ignores the type filter is narrowed here). */
export function embeddedWalletIds(list: {data: Array<{id: string; type?: string}>}): string[] {
  return list.data.filter((a) => a.type === undefined || a.type === 'EMBEDDED_WALLET').map((a) => a.id)
}

/** Signed operations, with the per-endpoint success rule of spec 5.4 rule 3. */
export const walletOps = {
  verify: (credentialId: string, body: Record<string, unknown>, accountId: string): SignedOperation => ({
    method: 'POST',
    path: ['auth', 'credentials', credentialId, 'verify'],
    body,
    success: 'ok',
    accountId,
    what: `verification of ${credentialId}`,
    resume: `Run the login again; \`svc wallet sessions list ${accountId}\` shows sessions the service created meanwhile.`,
  }),
  challenge: (credentialId: string, body?: Record<string, unknown>): SignedOperation => ({
    method: 'POST',
    path: ['auth', 'credentials', credentialId, 'challenge'],
    body: body ?? {},
    success: 'ok',
    what: `challenge of ${credentialId}`,
    resume: 'Run the command again; do not ask for another OTP while one is processing.',
  }),
  addCredential: (body: Record<string, unknown>): SignedOperation => ({
    method: 'POST',
    path: ['auth', 'credentials'],
    body,
    success: 'created',
    accountId: typeof body.accountId === 'string' ? body.accountId : undefined,
    what: `addition of ${withArticle(String(body.type))} credential`,
    resume: `Check \`svc wallet credentials list ${String(body.accountId)}\` before adding again.`,
  }),
  revokeCredential: (credentialId: string, accountId?: string): SignedOperation => ({
    method: 'DELETE',
    path: ['auth', 'credentials', credentialId],
    success: 'created',
    accountId,
    walletSignature: {accountId},
    what: `revocation of ${credentialId}`,
    resume: `Check \`svc wallet credentials list ${accountId}\`: the service finishes the revocation itself.`,
  }),
  refreshSession: (sessionId: string, clientPublicKey: string, accountId: string): SignedOperation => ({
    method: 'POST',
    path: ['auth', 'sessions', sessionId, 'refresh'],
    body: {clientPublicKey},
    success: 'created',
    accountId,
    what: `refresh of ${sessionId}`,
    resume: `Check \`svc wallet sessions list ${accountId}\`, or log in again.`,
  }),
  revokeSession: (sessionId: string, accountId?: string): SignedOperation => ({
    method: 'DELETE',
    path: ['auth', 'sessions', sessionId],
    success: 'created',
    accountId,
    walletSignature: {accountId},
    what: `revocation of ${sessionId}`,
    resume: `Check \`svc wallet sessions list ${accountId}\`: the service finishes the revocation itself.`,
  }),
  exportWallet: (accountId: string, clientPublicKey: string): SignedOperation => ({
    method: 'POST',
    path: ['internal-accounts', accountId, 'export'],
    body: {clientPublicKey},
    success: 'ok',
    restartOnLapse: true,
    accountId,
    what: `export of ${accountId}`,
    resume: `Run \`svc wallet export ${accountId}\` again: an export is only delivered to a re-send, and a fresh one starts if the challenge lapsed.`,
  }),
  privacy: (accountId: string, privateEnabled: boolean): SignedOperation => ({
    method: 'PATCH',
    path: ['internal-accounts', accountId],
    body: {privateEnabled},
    success: 'ok',
    accountId,
    walletSignature: {accountId},
    what: `privacy update of ${accountId}`,
    resume: 'Run the command again to check; the update is idempotent.',
  }),
  updateCustomer: (customerId: string, body: Record<string, unknown>): SignedOperation => ({
    method: 'PATCH',
    path: ['customers', customerId],
    body,
    success: 'ok',
    walletSignature: {ifAsked: true},
    what: `update of ${customerId}`,
    resume: `Check \`svc customers get ${customerId}\` before running the update again.`,
  }),
}
