import {sha256} from '@noble/hashes/sha2.js'
import type {CredentialCreateRequest, CredentialVerifyRequest} from '../../../lib/schemas/wallet.js'
import {verifyP256Der} from '../../../lib/wallet/ecdsa.js'
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  compressPublicKey,
  utf8Decode,
  utf8Encode,
} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {HttpError, invalid} from '../../http-error.js'
import {newId} from '../../ids.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {type CborValue, decodeCbor, decodeCborItem} from './cbor.js'
import {issueSession} from './sessions.js'
import {sha256Hex} from './signed-retry-challenge.js'
import {type StoredCredential, putCredential, publicCredential, walletSettings} from './state.js'
import {credentialByPasskeyId} from '../../store/wallet.js'

/**
 * Passkeys checked for real: registration parses the "none" attestation and the COSE P-256 key;
 * login checks challenge, origin, RP id hash, user presence, the ES256 signature over
 * authenticatorData || SHA-256(clientDataJSON) and a strictly increasing sign counter.
 */
const CHALLENGES = 'walletPasskeyChallenges'
const REGISTRATION_CHALLENGES = 'walletPasskeyRegistrationChallenges'
/** The legacy literal that skips WebAuthn checks; only with `legacySignatures` on. */
export const LEGACY_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature'

interface PasskeyChallenge {
  requestId: string
  authMethodId: string
  clientPublicKey: string
  challenge: string
  expiresAt: string
  used: boolean
}

export interface AuthenticatorData {
  rpIdHash: Uint8Array
  flags: number
  signCount: number
  credentialId?: Uint8Array
  publicKey?: string
}

export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  if (bytes.length < 37) throw new Error(`authenticator data is ${bytes.length} bytes; at least 37 are needed`)
  const flags = bytes[32]
  const signCount = new DataView(bytes.buffer, bytes.byteOffset + 33, 4).getUint32(0)
  const out: AuthenticatorData = {rpIdHash: bytes.slice(0, 32), flags, signCount}
  if (flags & 0x40) {
    if (bytes.length < 55) throw new Error('attested credential data is truncated')
    const length = (bytes[53] << 8) | bytes[54]
    if (bytes.length < 55 + length) throw new Error('the credential id is truncated')
    out.credentialId = bytes.slice(55, 55 + length)
    const {value} = decodeCborItem(bytes, 55 + length)
    out.publicKey = coseP256(value)
  }
  return out
}

/** COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y} → uncompressed SEC1 hex. */
function coseP256(value: CborValue): string {
  if (!(value instanceof Map)) throw new Error('the credential public key is not a COSE map')
  const x = value.get(-2)
  const y = value.get(-3)
  if (value.get(1) !== 2 || value.get(3) !== -7 || value.get(-1) !== 1)
    throw new Error('the credential public key must be an ES256 P-256 COSE key (kty 2, alg -7, crv 1)')
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32)
    throw new Error('the COSE key coordinates must be 32 bytes each')
  const hex = '04' + bytesToHex(x) + bytesToHex(y)
  compressPublicKey(hex) // on the curve
  return hex
}

function clientData(
  b64: string,
  field: string,
): {type?: unknown; challenge?: unknown; origin?: unknown; bytes: Uint8Array} {
  try {
    const bytes = base64urlDecode(b64)
    const value = JSON.parse(utf8Decode(bytes)) as Record<string, unknown>
    if (typeof value !== 'object' || value === null) throw new Error('not an object')
    return {...value, bytes}
  } catch {
    throw invalid([{field, message: 'must be base64url of the WebAuthn clientDataJSON (a JSON object)'}])
  }
}

const rpIdOf = (origin: string) => new URL(origin).hostname

/** Registration (POST /auth/credentials type PASSKEY): everything checked before the 202. */
export function checkRegistration(
  ctx: SandboxContext,
  body: Extract<CredentialCreateRequest, {type: 'PASSKEY'}>,
  leg: 1 | 2,
) {
  const {attestation} = body
  const data = clientData(attestation.clientDataJson, 'attestation.clientDataJson')
  const problems: Array<{field: string; message: string}> = []
  if (data.type !== 'webauthn.create')
    problems.push({
      field: 'attestation.clientDataJson',
      message: `type must be webauthn.create, got ${JSON.stringify(data.type ?? null)}`,
    })
  if (data.challenge !== body.challenge)
    problems.push({field: 'challenge', message: 'does not match the challenge inside attestation.clientDataJson'})
  const origins = walletSettings(ctx).passkeyOrigins
  if (typeof data.origin !== 'string' || !origins.includes(data.origin))
    problems.push({
      field: 'attestation.clientDataJson',
      message: `origin ${JSON.stringify(data.origin ?? null)} is not allowed (${origins.join(', ')})`,
    })
  if (leg === 1 && ctx.db.get(REGISTRATION_CHALLENGES, body.challenge))
    problems.push({field: 'challenge', message: 'was already used for a registration (challenges are single use)'})
  let auth: AuthenticatorData | undefined
  try {
    const object = decodeCbor(base64urlDecode(attestation.attestationObject))
    if (!(object instanceof Map)) throw new Error('it is not a CBOR map')
    if (object.get('fmt') !== 'none')
      throw new Error(
        `attestation format ${JSON.stringify(object.get('fmt'))} is not supported by the local sandbox; request attestation "none"`,
      )
    const authData = object.get('authData')
    if (!(authData instanceof Uint8Array)) throw new Error('authData is missing')
    auth = parseAuthenticatorData(authData)
    if (!auth.credentialId || !auth.publicKey)
      throw new Error('authData carries no attested credential (AT flag clear)')
  } catch (e) {
    problems.push({field: 'attestation.attestationObject', message: (e as Error).message})
  }
  if (
    auth?.credentialId &&
    base64urlEncode(auth.credentialId) !== base64urlEncode(base64urlDecode(attestation.credentialId))
  ) {
    problems.push({
      field: 'attestation.credentialId',
      message: 'does not match the credential id inside attestationObject',
    })
  }
  if (auth && !(auth.flags & 0x01))
    problems.push({field: 'attestation.attestationObject', message: 'the user-presence flag is not set'})
  if (
    auth &&
    typeof data.origin === 'string' &&
    origins.includes(data.origin) &&
    bytesToHex(auth.rpIdHash) !== sha256Hex(rpIdOf(data.origin))
  ) {
    problems.push({
      field: 'attestation.attestationObject',
      message: `rpIdHash is not SHA-256 of the origin's host ${rpIdOf(data.origin)}`,
    })
  }
  if (problems.length) throw invalid(problems)
  const credentialId = base64urlEncode(auth!.credentialId!)
  if (credentialByPasskeyId(ctx.db, credentialId)) {
    throw new HttpError(
      400,
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
      `A passkey with credentialId ${credentialId} is already registered`,
    )
  }
  return {
    credentialId,
    passkey: {publicKey: auth!.publicKey!, rpId: rpIdOf(data.origin as string), signCount: auth!.signCount},
  }
}

export function markRegistrationChallengeUsed(ctx: SandboxContext, challenge: string): void {
  ctx.db.put(REGISTRATION_CHALLENGES, challenge, {usedAt: ctx.iso()})
}

/** PASSKEY /challenge: binds clientPublicKey to a request id; the challenge hashes that binding. */
export function issuePasskeyChallenge(
  ctx: SandboxContext,
  cred: StoredCredential,
  clientPublicKey: string,
): Record<string, unknown> {
  const requestId = newId('Request')
  const expiresAt = ctx.iso(ctx.now() + walletSettings(ctx).signedChallengeTtlSeconds * 1000)
  const challenge = sha256Hex(JSON.stringify({credentialId: cred.id, clientPublicKey, requestId, expiresAt}))
  const stored: PasskeyChallenge = {
    requestId,
    authMethodId: cred.id,
    clientPublicKey,
    challenge,
    expiresAt,
    used: false,
  }
  ctx.db.put(CHALLENGES, requestId, stored)
  return {...publicCredential(cred), credentialId: cred.credentialId, challenge, requestId, expiresAt}
}

const refuse = (reason: string) => new HttpError(401, 'UNAUTHORIZED', `Passkey assertion refused: ${reason}`)

/** PASSKEY verify: the assertion plus the Request-Id of the challenge → 200 AuthSession. */
export async function verifyPasskeyLogin(
  req: EmuRequest,
  cred: StoredCredential,
  body: Extract<CredentialVerifyRequest, {type: 'PASSKEY'}>,
): Promise<EmuResponse> {
  const ctx = req.ctx
  const requestId = req.headers['request-id']
  if (typeof requestId !== 'string' || !requestId)
    throw new HttpError(
      401,
      'REQUEST_ID_MISSING',
      'Passkey verify needs the Request-Id header from POST /auth/credentials/{id}/challenge',
    )
  const ch = ctx.db.get<PasskeyChallenge>(CHALLENGES, requestId)
  if (!ch) throw new HttpError(404, 'REQUEST_NOT_FOUND', `Request ${requestId} was never issued by this sandbox`)
  if (ch.authMethodId !== cred.id) throw refuse(`request ${requestId} was issued for credential ${ch.authMethodId}`)
  if (ch.used)
    throw new HttpError(
      401,
      'UNAUTHORIZED',
      `Request ${requestId} was already used (single use); request a new challenge`,
    )
  if (Date.parse(ch.expiresAt) <= ctx.now())
    throw new HttpError(
      401,
      'UNAUTHORIZED',
      `The passkey challenge ${requestId} expired at ${ch.expiresAt}; request a new one`,
    )
  const {assertion} = body
  const passkey = cred.passkey!
  let signCount = passkey.signCount
  if (!(assertion.signature === LEGACY_PASSKEY_SIGNATURE && walletSettings(ctx).legacySignatures)) {
    if (assertion.credentialId !== cred.credentialId)
      throw refuse(`it is for credential ${assertion.credentialId}, not ${cred.credentialId}`)
    const data = clientData(assertion.clientDataJson, 'assertion.clientDataJson')
    let auth: AuthenticatorData
    try {
      auth = parseAuthenticatorData(base64urlDecode(assertion.authenticatorData))
    } catch (e) {
      throw invalid([{field: 'assertion.authenticatorData', message: (e as Error).message}])
    }
    if (data.type !== 'webauthn.get')
      throw refuse(`clientDataJSON type must be webauthn.get, got ${JSON.stringify(data.type ?? null)}`)
    if (data.challenge !== base64urlEncode(utf8Encode(ch.challenge)))
      throw refuse(`it answers another challenge, not the one of ${requestId}`)
    const origins = walletSettings(ctx).passkeyOrigins
    if (typeof data.origin !== 'string' || !origins.includes(data.origin))
      throw refuse(`origin ${JSON.stringify(data.origin ?? null)} is not allowed (${origins.join(', ')})`)
    if (bytesToHex(auth.rpIdHash) !== sha256Hex(passkey.rpId))
      throw refuse(`rpIdHash is not SHA-256 of the registered RP id ${passkey.rpId}`)
    if (!(auth.flags & 0x01)) throw refuse('the user-presence flag is not set')
    let signature: Uint8Array
    try {
      signature = base64urlDecode(assertion.signature)
    } catch {
      throw invalid([{field: 'assertion.signature', message: 'must be base64url of a DER ECDSA signature'}])
    }
    const signed = new Uint8Array([...base64urlDecode(assertion.authenticatorData), ...sha256(data.bytes)])
    if (!verifyP256Der(signature, signed, passkey.publicKey))
      throw refuse('the ES256 signature does not verify with the registered public key')
    if (!(auth.signCount > passkey.signCount || (auth.signCount === 0 && passkey.signCount === 0))) {
      throw refuse(
        `the sign counter ${auth.signCount} did not increase past ${passkey.signCount} (a cloned authenticator?)`,
      )
    }
    signCount = auth.signCount
  }
  ctx.db.put(CHALLENGES, requestId, {...ch, used: true})
  putCredential(ctx, {...cred, passkey: {...passkey, signCount}, updatedAt: ctx.iso()})
  const session = await issueSession(
    ctx,
    {accountId: cred.accountId, type: 'PASSKEY', credentialId: cred.id, nickname: cred.nickname},
    ch.clientPublicKey,
  )
  return {status: 200, body: session}
}
