import {accountIdQuery} from '../../lib/schemas/wallet.js'
import {addCredential, listCredentials, revokeCredential} from '../domain/wallet/credentials.js'
import {challengeCredential, verifyCredential} from '../domain/wallet/login.js'
import {listSessions, refreshSession, revokeSession} from '../domain/wallet/sessions.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** Embedded-wallet credentials and sessions (spec 4.6, api-gaps 5.1). */
export function registerAuth(router: Router): void {
  router.get('/auth/credentials', (req, ctx) =>
    listCredentials(ctx, validate(accountIdQuery, Object.fromEntries(req.query)).accountId),
  )
  router.post('/auth/credentials', (req) => addCredential(req))
  router.delete('/auth/credentials/:id', (req) => revokeCredential(req, req.params.id))
  router.post('/auth/credentials/:id/challenge', (req) => challengeCredential(req, req.params.id))
  router.post('/auth/credentials/:id/verify', (req) => verifyCredential(req, req.params.id))
  router.get('/auth/sessions', (req, ctx) =>
    listSessions(ctx, validate(accountIdQuery, Object.fromEntries(req.query)).accountId),
  )
  router.delete('/auth/sessions/:id', (req) => revokeSession(req, req.params.id))
  router.post('/auth/sessions/:id/refresh', (req) => refreshSession(req, req.params.id))
}
