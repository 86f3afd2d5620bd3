/**
 * Local checks of an OIDC ID token before it is sent (spec 5.2 OAUTH, sandbox-behaviour 14): the
 * service validates it on every call and refuses cached tokens, so catching a stale or malformed
 * token here saves a round trip and says precisely what is wrong. The signature is not checked
 * here: only the issuer's key set can do that.
 */
import {createHash} from 'node:crypto'
import {base64urlDecode, utf8Decode} from './encoding.js'

export interface OidcClaims {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp?: number
  nonce?: string
  email?: string
  [k: string]: unknown
}

export interface OidcProblem {
  field: string
  message: string
}

export const OIDC_MAX_AGE_SECONDS = 60

/** The nonce a sandbox expects: lowercase hex SHA-256 of the clientPublicKey text exactly as sent. */
export function oidcNonce(clientPublicKeyText: string): string {
  return createHash('sha256').update(clientPublicKeyText, 'utf8').digest('hex')
}

/** Returns the claims and every problem found (empty when the token may be sent). */
export function checkOidcToken(
  token: string,
  opts: {nowMs: number; expectedNonce?: string},
): {claims?: OidcClaims; problems: OidcProblem[]} {
  const problems: OidcProblem[] = []
  const parts = token.trim().split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+={0,2}$/.test(p))) {
    return {problems: [{field: 'oidcToken', message: 'is not JWT-shaped (three base64url parts separated by dots)'}]}
  }
  let claims: Record<string, unknown>
  try {
    JSON.parse(utf8Decode(base64urlDecode(parts[0])))
    claims = JSON.parse(utf8Decode(base64urlDecode(parts[1]))) as Record<string, unknown>
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw new Error('not an object')
  } catch {
    return {problems: [{field: 'oidcToken', message: 'header or payload is not base64url JSON'}]}
  }
  const nowSeconds = opts.nowMs / 1000
  if (typeof claims.iss !== 'string' || claims.iss === '')
    problems.push({field: 'oidcToken.iss', message: 'is missing (the issuer identifies the credential)'})
  const aud = claims.aud
  const audOk =
    (typeof aud === 'string' && aud !== '') ||
    (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === 'string' && a !== ''))
  if (!audOk) problems.push({field: 'oidcToken.aud', message: 'is missing (the audience identifies the credential)'})
  if (typeof claims.sub !== 'string' || claims.sub === '')
    problems.push({field: 'oidcToken.sub', message: 'is missing (the subject identifies the credential)'})
  if (typeof claims.iat !== 'number') {
    problems.push({
      field: 'oidcToken.iat',
      message: 'is missing; the service needs a token issued at most 60 seconds ago',
    })
  } else if (nowSeconds - claims.iat > OIDC_MAX_AGE_SECONDS) {
    problems.push({
      field: 'oidcToken.iat',
      message: `is ${Math.round(nowSeconds - claims.iat)} s old; the service accepts at most ${OIDC_MAX_AGE_SECONDS} s, and cached tokens fail: mint a fresh one`,
    })
  } else if (claims.iat - nowSeconds > 5) {
    problems.push({
      field: 'oidcToken.iat',
      message: 'lies in the future; check the clock of the machine that minted it',
    })
  }
  if (typeof claims.exp !== 'number')
    problems.push({field: 'oidcToken.exp', message: 'is missing (an ID token carries its expiry)'})
  else if (claims.exp <= nowSeconds) problems.push({field: 'oidcToken.exp', message: 'has passed: the token expired'})
  if (opts.expectedNonce !== undefined && claims.nonce !== opts.expectedNonce) {
    problems.push({
      field: 'oidcToken.nonce',
      message: `must be ${opts.expectedNonce} (SHA-256 of this login's client public key; see --print-nonce)`,
    })
  }
  return {claims: problems.length ? undefined : (claims as OidcClaims), problems}
}
