import {sessionRefreshRequest} from '../../../lib/schemas/wallet.js'
import {bytesToHex, compressPublicKey, encryptCredentialBundle, generateP256KeyPair} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {invalid, validate} from '../../http-error.js'
import {newId} from '../../ids.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {signedRetry} from './signed-retry.js'
import {
  type StoredSession,
  accountSessions,
  getActiveSession,
  getWalletAccount,
  publicSession,
  putSession,
  walletSettings,
} from './state.js'

/** The schemas check the hex shape; this checks the point is on P-256 (400 naming the field otherwise). */
export function assertPublicKey(hex: string, field: string): void {
  try {
    compressPublicKey(hex)
  } catch {
    throw invalid([{field, message: 'is not a point on the P-256 curve'}])
  }
}

type SessionSource = Pick<StoredSession, 'accountId' | 'type' | 'credentialId' | 'nickname'>

/**
 * A new session for a credential. A compressed `clientPublicKey` is the session key itself (the
 * client holds it); an uncompressed one is the legacy mode: the enclave makes the session key and
 * returns it sealed to that key as `encryptedSessionSigningKey` (api-gaps 5.3).
 */
export async function issueSession(
  ctx: SandboxContext,
  source: SessionSource,
  clientPublicKey: string,
): Promise<Record<string, unknown>> {
  let publicKey: string
  let sealed: string | undefined
  if (/^0[23]/.test(clientPublicKey)) {
    publicKey = bytesToHex(compressPublicKey(clientPublicKey))
  } else {
    const key = generateP256KeyPair()
    publicKey = bytesToHex(key.publicKeyCompressed)
    sealed = await encryptCredentialBundle(key.privateKey, clientPublicKey)
  }
  return {
    ...publicSession(createSession(ctx, source, publicKey)),
    ...(sealed ? {encryptedSessionSigningKey: sealed} : {}),
  }
}

/** OTP logins: the TEK from the OTP bundle becomes the session key; nothing is sealed back. */
export function createSession(ctx: SandboxContext, source: SessionSource, publicKeyHex: string): StoredSession {
  const now = ctx.now()
  const session: StoredSession = {
    id: newId('Session'),
    accountId: source.accountId,
    type: source.type,
    credentialId: source.credentialId,
    nickname: source.nickname,
    publicKey: bytesToHex(compressPublicKey(publicKeyHex)),
    revoked: false,
    createdAt: ctx.iso(now),
    updatedAt: ctx.iso(now),
    expiresAt: ctx.iso(now + walletSettings(ctx).sessionTtlSeconds * 1000),
  }
  return putSession(ctx, session)
}

export function listSessions(ctx: SandboxContext, accountId: string): EmuResponse {
  getWalletAccount(ctx, accountId)
  return {status: 200, body: {data: accountSessions(ctx, accountId).map(publicSession)}}
}

/** DELETE /auth/sessions/{id}: any active session of the account may sign, itself included. */
export function revokeSession(req: EmuRequest, sessionId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  return signedRetry(
    req,
    () => {
      const s = getActiveSession(ctx, sessionId)
      return {
        operation: 'session.revoke',
        resourceType: 'SESSION',
        resourceId: s.id,
        signer: {kind: 'account', accountIds: [s.accountId]},
        challengeType: s.type,
      }
    },
    () => {
      const s = ctx.db.get<StoredSession>('walletSessions', sessionId)
      if (s && !s.revoked) putSession(ctx, {...s, revoked: true, updatedAt: ctx.iso()})
      return {status: 204}
    },
  )
}

/** POST /auth/sessions/{id}/refresh: signed by that session; answers 201 with a new session. */
export function refreshSession(req: EmuRequest, sessionId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  const body = validate(sessionRefreshRequest, req.body)
  assertPublicKey(body.clientPublicKey, 'clientPublicKey')
  return signedRetry(
    req,
    () => {
      const s = getActiveSession(ctx, sessionId)
      return {
        operation: 'session.refresh',
        resourceType: 'SESSION',
        resourceId: s.id,
        signer: {kind: 'session', sessionId: s.id},
      }
    },
    async () => {
      // The signing session may have expired while the operation settled; its facts still stand.
      const s = ctx.db.get<StoredSession>('walletSessions', sessionId)!
      return {status: 201, body: await issueSession(ctx, s, body.clientPublicKey)}
    },
  )
}
