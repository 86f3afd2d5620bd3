import {accountIdQuery} from '../../lib/schemas/wallet.js'
import {addCredential, listCredentials, revokeCredential} from '../domain/wallet/credentials.js'
import {challengeCredential, verifyCredential} from '../domain/wallet/login.js'
import {listSessions, refreshSession, revokeSession} from '../domain/wallet/sessions.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** Embedded-wallet credentials and sessions (spec 4.6, api-gaps 5.1). */
export function registerAuth(router: Router): void {
  router.handle('listAuthCredentials', (req, ctx) =>
    listCredentials(ctx, validate(accountIdQuery, Object.fromEntries(req.query)).accountId),
  )
  router.handle('createAuthCredential', (req) => addCredential(req))
  router.handle('revokeAuthCredential', (req) => revokeCredential(req, req.params.id))
  router.handle('challengeAuthCredential', (req) => challengeCredential(req, req.params.id))
  router.handle('verifyAuthCredential', (req) => verifyCredential(req, req.params.id))
  router.handle('listAuthSessions', (req, ctx) =>
    listSessions(ctx, validate(accountIdQuery, Object.fromEntries(req.query)).accountId),
  )
  router.handle('revokeAuthSession', (req) => revokeSession(req, req.params.id))
  router.handle('refreshAuthSession', (req) => refreshSession(req, req.params.id))
}
