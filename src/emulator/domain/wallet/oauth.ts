import type {CredentialVerifyRequest} from '../../../lib/schemas/wallet.js'
import {base64urlDecode, utf8Decode} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {HttpError, invalid} from '../../http-error.js'
import type {EmuResponse} from '../../router.js'
import {assertPublicKey, issueSession} from './sessions.js'
import {sha256Hex} from './signed-retry-challenge.js'
import type {StoredCredential} from './state.js'

/**
 * OIDC tokens as the sandbox treats them (sandbox-behaviour 14): JWT-shaped, signature not checked,
 * issuer, audience, subject and freshness claims checked; (iss, aud, sub) is the identity; a token
 * is good for one use.
 */
export const SUPPORTED_ISSUERS = ['accounts.google.com', 'https://accounts.google.com', 'https://appleid.apple.com']
const MAX_AGE_S = 60
const SKEW_S = 5
const USED_TOKENS = 'walletUsedOidcTokens'

export interface OidcIdentity {
  iss: string
  aud: string
  sub: string
}

export interface OidcClaims extends OidcIdentity {
  email?: string
  nonce?: string
}

/** Decodes the payload part; a token that is not a JWT with a JSON object payload is 400 INVALID_INPUT. */
export function decodeOidcToken(token: string, field: string): Record<string, unknown> {
  const parts = token.split('.')
  let payload: unknown
  try {
    if (parts.length !== 3) throw new Error('parts')
    payload = JSON.parse(utf8Decode(base64urlDecode(parts[1])))
    JSON.parse(utf8Decode(base64urlDecode(parts[0])))
  } catch {
    throw invalid([{field, message: 'is not a JWT: header and payload must be base64url JSON objects'}])
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw invalid([{field, message: 'is not a JWT: the payload is not a JSON object'}])
  return payload as Record<string, unknown>
}

/** The first failing identity or freshness check, named; undefined when the claims are acceptable. */
export function oidcClaimProblem(claims: Record<string, unknown>, nowMs: number): string | undefined {
  const now = nowMs / 1000
  const {iss, aud, sub, iat, exp} = claims
  if (typeof iss !== 'string' || !SUPPORTED_ISSUERS.includes(iss))
    return `iss ${JSON.stringify(iss ?? null)} is not a supported issuer (${SUPPORTED_ISSUERS.join(', ')})`
  const audience = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud
  if (typeof audience !== 'string' || audience === '')
    return 'aud must be a non-empty string (or a one-element array of one)'
  if (typeof sub !== 'string' || sub === '') return 'sub must be a non-empty string'
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'iat must be a number (seconds since the epoch)'
  if (iat > now + SKEW_S) return `iat is ${Math.round(iat - now)} s in the future`
  if (now - iat > MAX_AGE_S + SKEW_S)
    return `iat is ${Math.round(now - iat)} s old; tokens must be at most ${MAX_AGE_S} s old (cached tokens fail: mint a fresh one)`
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'exp must be a number (seconds since the epoch)'
  if (exp <= now) return 'exp is in the past: the token has expired'
  return undefined
}

export function oidcClaims(claims: Record<string, unknown>): OidcClaims {
  const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud
  return {
    iss: String(claims.iss),
    aud: String(aud),
    sub: String(claims.sub),
    ...(typeof claims.email === 'string' && claims.email ? {email: claims.email} : {}),
    ...(typeof claims.nonce === 'string' ? {nonce: claims.nonce} : {}),
  }
}

export const sameIdentity = (a: OidcIdentity, b: OidcIdentity) => a.iss === b.iss && a.aud === b.aud && a.sub === b.sub

/** Google's two spellings of its issuer are one provider. */
export const normalIssuer = (iss: string) => iss.replace(/^https:\/\//, '')

export function tokenUsed(ctx: SandboxContext, token: string): boolean {
  return ctx.db.get(USED_TOKENS, sha256Hex(token)) !== undefined
}

export function markTokenUsed(ctx: SandboxContext, token: string): void {
  ctx.db.put(USED_TOKENS, sha256Hex(token), {usedAt: ctx.iso()})
}

const refuse = (reason: string) => new HttpError(401, 'UNAUTHORIZED', `OIDC token refused: ${reason}`)

/** OAUTH verify: a single call answering 200 AuthSession (sealed key only for an uncompressed clientPublicKey). */
export async function verifyOidcLogin(
  ctx: SandboxContext,
  cred: StoredCredential,
  body: Extract<CredentialVerifyRequest, {type: 'OAUTH'}>,
): Promise<EmuResponse> {
  const raw = decodeOidcToken(body.oidcToken, 'oidcToken')
  assertPublicKey(body.clientPublicKey, 'clientPublicKey')
  const problem = oidcClaimProblem(raw, ctx.now())
  if (problem) throw refuse(problem)
  const claims = oidcClaims(raw)
  const identity = cred.oauth!
  if (!sameIdentity({...claims, iss: normalIssuer(claims.iss)}, {...identity, iss: normalIssuer(identity.iss)})) {
    throw refuse(`its identity (iss, aud, sub) does not match credential ${cred.id}`)
  }
  const expectedNonce = sha256Hex(body.clientPublicKey)
  if (claims.nonce !== expectedNonce) {
    throw refuse(`nonce must be the lowercase hex SHA-256 of the clientPublicKey text as sent (${expectedNonce})`)
  }
  if (tokenUsed(ctx, body.oidcToken)) throw refuse('this token was already used; mint a fresh one')
  markTokenUsed(ctx, body.oidcToken)
  const session = await issueSession(
    ctx,
    {accountId: cred.accountId, type: 'OAUTH', credentialId: cred.id, nickname: cred.nickname},
    body.clientPublicKey,
  )
  return {status: 200, body: session}
}
