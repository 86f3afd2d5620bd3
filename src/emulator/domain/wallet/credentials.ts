import {credentialCreateRequest, type CredentialCreateRequest} from '../../../lib/schemas/wallet.js'
import type {SandboxContext} from '../../context.js'
import {HttpError, badRequest, conflict, invalid, validate} from '../../http-error.js'
import {newId} from '../../ids.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import type {StoredCustomer} from '../customers.js'
import {issueOtpTarget} from './login.js'
import {
  decodeOidcToken,
  markTokenUsed,
  normalIssuer,
  oidcClaimProblem,
  oidcClaims,
  sameIdentity,
  tokenUsed,
} from './oauth.js'
import {checkRegistration, markRegistrationChallengeUsed} from './passkey.js'
import {signedRetry} from './signed-retry.js'
import {credentialsByContact} from '../../store/wallet.js'
import {
  type StoredCredential,
  CREDENTIALS,
  accountCredentials,
  getCredential,
  getWalletAccount,
  publicCredential,
  putCredential,
  revokeCredentialSessions,
} from './state.js'

export function listCredentials(ctx: SandboxContext, accountId: string): EmuResponse {
  getWalletAccount(ctx, accountId)
  return {status: 200, body: {data: accountCredentials(ctx, accountId).map(publicCredential)}}
}

type NewCredential = Omit<StoredCredential, 'id' | 'accountId' | 'createdAt' | 'updatedAt'>

/**
 * Spec 8 limits for a new credential, checked at both legs and again when it executes: one
 * EMAIL_OTP, one SMS_OTP (each tied to the customer's contact, unique across wallets), distinct
 * PASSKEYs, one OAUTH per provider identity. Returns what to store.
 */
function admit(ctx: SandboxContext, body: CredentialCreateRequest, leg: 1 | 2): NewCredential {
  const account = getWalletAccount(ctx, body.accountId)
  const existing = accountCredentials(ctx, account.id)
  const customer = account.customerId ? ctx.db.get<StoredCustomer>('customers', account.customerId) : undefined
  switch (body.type) {
    case 'EMAIL_OTP': {
      if (existing.some((c) => c.type === 'EMAIL_OTP'))
        throw badRequest(
          'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
          `${account.id} already has an EMAIL_OTP credential; revoke it first`,
        )
      if (!customer?.email)
        throw invalid([
          {field: 'accountId', message: "the wallet's customer has no email; set one with PATCH /customers/{id}"},
        ])
      if (credentialsByContact(ctx.db, 'EMAIL_OTP', customer.email).length)
        throw conflict('EMAIL_OTP_EMAIL_ALREADY_EXISTS', `Another EMAIL_OTP credential uses ${customer.email}`)
      return {type: 'EMAIL_OTP', nickname: customer.email}
    }
    case 'SMS_OTP': {
      if (existing.some((c) => c.type === 'SMS_OTP'))
        throw badRequest(
          'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
          `${account.id} already has an SMS_OTP credential; revoke it first`,
        )
      if (!customer?.phoneNumber)
        throw invalid([
          {field: 'accountId', message: "the wallet's customer has no phoneNumber; set one with PATCH /customers/{id}"},
        ])
      if (credentialsByContact(ctx.db, 'SMS_OTP', customer.phoneNumber).length)
        throw conflict('SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS', `Another SMS_OTP credential uses ${customer.phoneNumber}`)
      return {type: 'SMS_OTP', nickname: customer.phoneNumber}
    }
    case 'OAUTH': {
      const raw = decodeOidcToken(body.oidcToken, 'oidcToken')
      if (leg === 1) {
        // Freshness is judged when the request is first made; leg 2 repeats the same bytes.
        const problem = oidcClaimProblem(raw, ctx.now())
        if (problem) throw invalid([{field: 'oidcToken', message: problem}])
        if (tokenUsed(ctx, body.oidcToken))
          throw invalid([{field: 'oidcToken', message: 'this token was already used; mint a fresh one'}])
      }
      const claims = oidcClaims(raw)
      const identity = {iss: claims.iss, aud: claims.aud, sub: claims.sub}
      const norm = (i: typeof identity) => ({...i, iss: normalIssuer(i.iss)})
      if (existing.some((c) => c.oauth && sameIdentity(norm(c.oauth), norm(identity)))) {
        throw conflict(
          'CONFLICT',
          `${account.id} already has an OAUTH credential for ${identity.iss} subject ${identity.sub}`,
        )
      }
      return {type: 'OAUTH', nickname: claims.email ?? `${normalIssuer(claims.iss)}:${claims.sub}`, oauth: identity}
    }
    case 'PASSKEY': {
      const {credentialId, passkey} = checkRegistration(ctx, body, leg)
      return {type: 'PASSKEY', nickname: body.nickname, credentialId, passkey}
    }
  }
}

/** POST /auth/credentials: every add is a signed retry by a session of the same wallet → 201 AuthMethod. */
export function addCredential(req: EmuRequest): Promise<EmuResponse> {
  const ctx = req.ctx
  const body = validate(credentialCreateRequest, req.body)
  return signedRetry(
    req,
    (leg) => {
      admit(ctx, body, leg)
      // The new AuthMethod's id is fixed at leg 1 so the payload and the webhook name it.
      const authMethodId = newId('AuthMethod')
      return {
        operation: 'auth_credential.create',
        resourceType: 'AUTH_METHOD',
        resourceId: authMethodId,
        context: {authMethodId},
        signer: {kind: 'account', accountIds: [body.accountId]},
        challengeType: body.type,
        onChallenge: () => {
          if (body.type === 'OAUTH') markTokenUsed(ctx, body.oidcToken)
          if (body.type === 'PASSKEY') markRegistrationChallengeUsed(ctx, body.challenge)
        },
      }
    },
    (pending) => {
      const fields = admit(ctx, body, 2)
      const now = ctx.iso()
      const cred: StoredCredential = {
        ...fields,
        id: String(pending.context.authMethodId),
        accountId: body.accountId,
        createdAt: now,
        updatedAt: now,
      }
      // New OTP credentials come with their first target bundle (api-gaps 5.2).
      const bundle = cred.type === 'EMAIL_OTP' || cred.type === 'SMS_OTP' ? issueOtpTarget(ctx, cred) : undefined
      putCredential(ctx, cred)
      return {status: 201, body: {...publicCredential(cred), ...(bundle ? {otpEncryptionTargetBundle: bundle} : {})}}
    },
  )
}

/** DELETE /auth/credentials/{id}: signed by a session of another credential; never the last one; 204. */
export function revokeCredential(req: EmuRequest, credentialId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  const check = () => {
    const cred = getCredential(ctx, credentialId)
    if (accountCredentials(ctx, cred.accountId).length <= 1) {
      throw new HttpError(
        400,
        'INVALID_INPUT',
        `${cred.id} is the only credential of ${cred.accountId}; add another before revoking it`,
        {
          errors: [{field: 'id', message: 'is the last credential of its wallet (at least one must remain)'}],
        },
      )
    }
    return cred
  }
  return signedRetry(
    req,
    () => {
      const cred = check()
      return {
        operation: 'auth_credential.delete',
        resourceType: 'AUTH_METHOD',
        resourceId: cred.id,
        signer: {kind: 'otherCredential', accountId: cred.accountId, credentialId: cred.id},
        challengeType: cred.type,
      }
    },
    () => {
      const cred = check()
      ctx.db.del(CREDENTIALS, cred.id)
      revokeCredentialSessions(ctx, cred.id)
      return {status: 204}
    },
  )
}
