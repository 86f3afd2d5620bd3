import {type AuthMethod, authSessionSchema, passkeyChallengeSchema, walletOps} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {InputError, SvcError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import type {KeyRecord} from '../../keystore.js'
import {Secret} from '../../secret.js'
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  generateP256KeyPair,
  hexToBytes,
  type P256KeyPair,
  publicKeyFromPrivate,
  utf8Decode,
  utf8Encode,
} from '../../wallet/index.js'
import {checkOidcToken, oidcNonce} from '../../wallet/oidc.js'
import {engineFor, memorySigner, writableKeyStore} from './common.js'
import {type LoginResult, storeSession} from './login.js'

const PENDING_OAUTH_MS = 10 * 60_000

function keyPairOf(record: KeyRecord, privateKeyHex: Secret): P256KeyPair {
  const privateKey = hexToBytes(privateKeyHex.reveal())
  return {
    privateKey,
    publicKeyCompressed: publicKeyFromPrivate(privateKey, true),
    publicKeyUncompressed: publicKeyFromPrivate(privateKey, false),
  }
}

/** OAUTH step 0: a client key kept pending so the operator can mint a token whose nonce binds it. */
export async function prepareOauth(
  ctx: Context,
  credential: AuthMethod,
  legacy: boolean,
): Promise<{clientPublicKey: string; nonce: string; expiresAt: string}> {
  const kp = generateP256KeyPair()
  const clientPublicKey = bytesToHex(legacy ? kp.publicKeyUncompressed : kp.publicKeyCompressed)
  const expiresAt = new Date(ctx.now() + PENDING_OAUTH_MS).toISOString()
  ;(await writableKeyStore(ctx)).save({
    kind: 'pending',
    accountId: credential.accountId,
    credentialId: credential.id,
    credentialType: 'OAUTH',
    publicKey: bytesToHex(kp.publicKeyCompressed),
    clientPublicKey,
    expiresAt,
    privateKey: new Secret(bytesToHex(kp.privateKey)),
  })
  return {clientPublicKey, nonce: oidcNonce(clientPublicKey), expiresAt}
}

/** Shape, identity and freshness checks that need no request: run before anything is sent. */
export function precheckOidcToken(ctx: Context, token: Secret): void {
  const {problems} = checkOidcToken(token.reveal(), {nowMs: ctx.now()})
  if (problems.length) {
    throw new InputError(
      problems,
      `The OIDC token cannot be used: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      'Mint a fresh token (iat within 60 s); cached tokens fail. Nothing was sent.',
    )
  }
}

/** OAUTH (spec 5.2): local token checks, then a single verify with the (pending or fresh) client key. */
export async function loginWithOauth(
  ctx: Context,
  credential: AuthMethod,
  token: Secret,
  legacy: boolean,
): Promise<LoginResult> {
  const keys = await writableKeyStore(ctx)
  const pending = keys.findPending(credential.accountId, credential.id)
  const kp = pending ? keyPairOf(pending, await keys.privateKey(pending)) : generateP256KeyPair()
  const clientPublicKey =
    pending?.clientPublicKey ?? bytesToHex(legacy ? kp.publicKeyUncompressed : kp.publicKeyCompressed)
  const {problems} = checkOidcToken(token.reveal(), {
    nowMs: ctx.now(),
    expectedNonce: ctx.profile.environment === 'production' ? undefined : oidcNonce(clientPublicKey),
  })
  if (problems.length) {
    throw new InputError(
      problems,
      `The OIDC token cannot be used: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      pending
        ? 'Mint a fresh token (iat within 60 s) with the nonce printed by --print-nonce; cached tokens fail.'
        : 'Run with --print-nonce first, mint a token with that nonce, then log in within 60 s.',
    )
  }
  const res = await engineFor(ctx).run(
    walletOps.verify(credential.id, {type: 'OAUTH', oidcToken: token.reveal(), clientPublicKey}, credential.accountId),
    memorySigner(kp.privateKey),
  )
  const result = await storeSession(ctx, keys, credential, ctx.client.parse(authSessionSchema, res.body, 'session'), kp)
  if (pending) keys.remove(pending.id)
  return result
}

/** PASSKEY step 1: challenge bound to a new client key; the key waits in the store for the assertion. */
export async function startPasskeyLogin(ctx: Context, credential: AuthMethod) {
  const keys = await writableKeyStore(ctx)
  const kp = generateP256KeyPair()
  const clientPublicKey = bytesToHex(kp.publicKeyCompressed)
  const res = await engineFor(ctx).run(
    walletOps.challenge(credential.id, {clientPublicKey}),
    memorySigner(kp.privateKey),
  )
  const ch = ctx.client.parse(passkeyChallengeSchema, res.body, 'passkey challenge')
  keys.save({
    kind: 'pending',
    accountId: credential.accountId,
    credentialId: credential.id,
    credentialType: 'PASSKEY',
    publicKey: clientPublicKey,
    clientPublicKey,
    requestId: ch.requestId,
    challenge: ch.challenge,
    expiresAt: ch.expiresAt,
    privateKey: new Secret(bytesToHex(kp.privateKey)),
  })
  return {
    credentialId: ch.credentialId ?? credential.credentialId,
    challenge: ch.challenge,
    requestId: ch.requestId,
    expiresAt: ch.expiresAt,
  }
}

const B64URL = /^[A-Za-z0-9_-]+$/

/** Accepts {credentialId, clientDataJSON, ...} or a WebAuthn PublicKeyCredential JSON; spells clientDataJson the API's way. */
export function parseAssertion(value: unknown, expectedChallenge?: string): Record<string, string> {
  const v = (value ?? {}) as Record<string, unknown>
  const r = (v.response && typeof v.response === 'object' ? v.response : v) as Record<string, unknown>
  const out: Record<string, unknown> = {
    credentialId: v.credentialId ?? v.rawId ?? v.id,
    clientDataJson: r.clientDataJSON ?? r.clientDataJson,
    authenticatorData: r.authenticatorData,
    signature: r.signature,
    ...(r.userHandle ? {userHandle: r.userHandle} : {}),
  }
  const problems = Object.entries(out)
    .filter(([, x]) => typeof x !== 'string' || !B64URL.test(x))
    .map(([k]) => ({field: `assertion.${k}`, message: 'must be base64url text'}))
  if (problems.length) throw new InputError(problems)
  if (expectedChallenge !== undefined) {
    let client: {type?: string; challenge?: string}
    try {
      client = JSON.parse(utf8Decode(base64urlDecode(out.clientDataJson as string)))
    } catch {
      throw new InputError([{field: 'assertion.clientDataJson', message: 'does not decode to JSON'}])
    }
    if (client.type !== 'webauthn.get')
      throw new InputError([
        {field: 'assertion.clientDataJson', message: `type is ${JSON.stringify(client.type)}, expected "webauthn.get"`},
      ])
    if (client.challenge !== base64urlEncode(utf8Encode(expectedChallenge))) {
      throw new InputError(
        [{field: 'assertion.clientDataJson', message: 'answers another challenge than the one this login issued'}],
        undefined,
        'Sign the challenge printed by the first step (or start again without --assertion).',
      )
    }
  }
  return out as Record<string, string>
}

/** PASSKEY step 2: verify the assertion with the pending Request-Id; the client key becomes the session key. */
export async function finishPasskeyLogin(
  ctx: Context,
  credential: AuthMethod,
  assertionJson: unknown,
): Promise<LoginResult> {
  const keys = await writableKeyStore(ctx)
  const pending = keys.findPending(credential.accountId, credential.id)
  if (!pending?.requestId) {
    throw new SvcError({
      code: 'PASSKEY_CHALLENGE_REQUIRED',
      message: `No pending passkey challenge for ${credential.id} (none issued, or it expired)`,
      exitCode: ExitCode.USAGE,
      hint: `Run \`svc wallet login ${credential.accountId} --credential ${credential.id}\` without --assertion first, then sign its challenge.`,
    })
  }
  const assertion = parseAssertion(assertionJson, pending.challenge)
  const kp = keyPairOf(pending, await keys.privateKey(pending))
  const op = {
    ...walletOps.verify(credential.id, {type: 'PASSKEY', assertion}, credential.accountId),
    headers: {'request-id': pending.requestId},
  }
  const res = await engineFor(ctx).run(op, memorySigner(kp.privateKey))
  const result = await storeSession(ctx, keys, credential, ctx.client.parse(authSessionSchema, res.body, 'session'), kp)
  keys.remove(pending.id)
  return result
}
