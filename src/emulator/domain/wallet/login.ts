import {
  credentialChallengeRequest,
  credentialVerifyRequest,
  type CredentialVerifyRequest,
} from '../../../lib/schemas/wallet.js'
import {
  bytesToHex,
  compressPublicKey,
  decryptOtpBundle,
  generateP256KeyPair,
  isWalletCryptoError,
  makeSignedEnvelope,
  type OtpBundlePlaintext,
} from '../../../lib/wallet/index.js'
import type {SandboxContext} from '../../context.js'
import {HttpError, invalid, validate} from '../../http-error.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {verifyOidcLogin} from './oauth.js'
import {issuePasskeyChallenge, verifyPasskeyLogin} from './passkey.js'
import {assertPublicKey, createSession} from './sessions.js'
import {signedRetry} from './signed-retry.js'
import {
  type StoredCredential,
  getCredential,
  organizationId,
  publicCredential,
  putCredential,
  quorumPrivateKey,
  walletSettings,
} from './state.js'

/** The sandbox OTP (sandbox-behaviour 14): delivery is skipped, the HPKE is real. */
export const SANDBOX_OTP = '000000'

/** POST /auth/credentials/{id}/challenge: a fresh OTP target bundle, or a passkey challenge. */
export function challengeCredential(req: EmuRequest, credentialId: string): EmuResponse {
  const ctx = req.ctx
  const cred = getCredential(ctx, credentialId)
  const body = validate(credentialChallengeRequest, req.body ?? {})
  if (cred.type === 'OAUTH')
    throw invalid([{field: 'id', message: 'OAUTH credentials have no challenge step: verify with a fresh OIDC token'}])
  if (cred.type === 'PASSKEY' && !body.clientPublicKey) {
    throw invalid([
      {field: 'clientPublicKey', message: 'is required for a PASSKEY challenge (the session key to bind)'},
    ])
  }
  if (body.clientPublicKey) assertPublicKey(body.clientPublicKey, 'clientPublicKey')
  rateLimit(ctx, cred)
  cred.lastChallengeAt = ctx.now()
  if (cred.type === 'PASSKEY') {
    putCredential(ctx, cred)
    return {status: 200, body: issuePasskeyChallenge(ctx, cred, body.clientPublicKey!)}
  }
  const bundle = issueOtpTarget(ctx, cred)
  putCredential(ctx, cred)
  return {status: 200, body: {...publicCredential(cred), otpEncryptionTargetBundle: bundle}}
}

/** Re-issuing a challenge on one credential faster than `challengeMinIntervalMs` is refused (spec 5.4 rule 5). */
function rateLimit(ctx: SandboxContext, cred: StoredCredential): void {
  const gap = walletSettings(ctx).challengeMinIntervalMs
  const since = cred.lastChallengeAt === undefined ? Infinity : ctx.now() - cred.lastChallengeAt
  if (since < gap) {
    const retryAfter = Math.max(1, Math.ceil((gap - since) / 1000))
    throw new HttpError(
      429,
      'RATE_LIMITED',
      `A challenge for ${cred.id} was issued ${since} ms ago; retry after ${retryAfter} s`,
      {retryAfterSeconds: retryAfter},
      {'retry-after': String(retryAfter)},
    )
  }
}

/** A fresh enclave HPKE key per challenge, published in an envelope signed by the quorum key. Mutates `cred`. */
export function issueOtpTarget(ctx: SandboxContext, cred: StoredCredential): string {
  const key = generateP256KeyPair()
  // The keys a newer challenge replaced, so a login racing another one can be told what happened.
  if (cred.otpTarget)
    cred.replacedOtpTargets = [cred.otpTarget.privateKey, ...(cred.replacedOtpTargets ?? [])].slice(0, 32)
  cred.otpTarget = {privateKey: bytesToHex(key.privateKey), issuedAt: ctx.now()}
  return makeSignedEnvelope(
    {targetPublic: bytesToHex(key.publicKeyUncompressed), organizationId: organizationId(ctx), credentialId: cred.id},
    quorumPrivateKey(ctx),
  )
}

/** POST /auth/credentials/{id}/verify for every credential type. */
export async function verifyCredential(req: EmuRequest, credentialId: string): Promise<EmuResponse> {
  const ctx = req.ctx
  const cred = getCredential(ctx, credentialId)
  const body = validate(credentialVerifyRequest, req.body)
  if (body.type !== cred.type)
    throw invalid([{field: 'type', message: `must be ${cred.type} (the type of credential ${cred.id})`}])
  switch (body.type) {
    case 'OAUTH':
      return verifyOidcLogin(ctx, cred, body)
    case 'PASSKEY':
      return verifyPasskeyLogin(req, cred, body)
    default:
      return verifyOtp(req, cred, body)
  }
}

/**
 * OTP leg 1 opens the bundle with the latest target key and checks the code, answering 202 with a
 * payload the TEK must stamp; leg 2 (same body, stamp by the TEK, Request-Id) creates the session.
 */
function verifyOtp(
  req: EmuRequest,
  cred: StoredCredential,
  body: Extract<CredentialVerifyRequest, {encryptedOtpBundle: string}>,
): Promise<EmuResponse> {
  const ctx = req.ctx
  return signedRetry(
    req,
    async () => {
      const fresh = getCredential(ctx, cred.id)
      const {public_key: tek} = await openOtp(ctx, fresh, body.encryptedOtpBundle)
      return {
        operation: 'session.create',
        resourceType: 'AUTH_METHOD',
        resourceId: fresh.id,
        signer: {kind: 'key', publicKey: tek},
        challengeType: fresh.type,
        context: {publicKey: tek},
      }
    },
    (pending) => {
      const current = getCredential(ctx, cred.id)
      const session = createSession(
        ctx,
        {accountId: current.accountId, type: current.type, credentialId: current.id, nickname: current.nickname},
        String(pending.context.publicKey),
      )
      const {revoked: _r, ...view} = session
      return {status: 200, body: view}
    },
  )
}

async function opensWithAny(bundle: string, privateKeys: string[]): Promise<boolean> {
  for (const key of privateKeys) {
    try {
      await decryptOtpBundle(bundle, key)
      return true
    } catch {
      // not this one
    }
  }
  return false
}

async function openOtp(
  ctx: SandboxContext,
  cred: StoredCredential,
  encryptedOtpBundle: string,
): Promise<OtpBundlePlaintext> {
  if (!cred.otpTarget) {
    throw invalid([
      {
        field: 'encryptedOtpBundle',
        message: `no OTP has been issued for ${cred.id}; POST /auth/credentials/${cred.id}/challenge first and encrypt to its otpEncryptionTargetBundle`,
      },
    ])
  }
  const lifetimeMs = Number(ctx.config().embeddedWalletConfig.expirationSeconds ?? 300) * 1000
  if (cred.otpTarget.issuedAt + lifetimeMs <= ctx.now()) {
    throw new HttpError(
      401,
      'UNAUTHORIZED',
      `The OTP issued at ${ctx.iso(cred.otpTarget.issuedAt)} for ${cred.id} has expired; request a new one with POST /auth/credentials/${cred.id}/challenge`,
    )
  }
  let plain: OtpBundlePlaintext
  try {
    plain = await decryptOtpBundle(encryptedOtpBundle, cred.otpTarget.privateKey)
  } catch (e) {
    if (isWalletCryptoError(e, 'DECRYPT_FAILED')) {
      if (await opensWithAny(encryptedOtpBundle, cred.replacedOtpTargets ?? [])) {
        throw new HttpError(
          401,
          'UNAUTHORIZED',
          `The OTP bundle was encrypted to a challenge of ${cred.id} that a newer login replaced (two logins ran at once); only an OTP encrypted to the latest challenge is accepted`,
          {replacedByNewerChallenge: true},
        )
      }
      throw new HttpError(
        401,
        'UNAUTHORIZED',
        `The encrypted OTP bundle does not open with the target key of the latest challenge for ${cred.id}; encrypt to the most recent otpEncryptionTargetBundle`,
      )
    }
    throw invalid([
      {field: 'encryptedOtpBundle', message: `is not a valid encrypted OTP bundle: ${(e as Error).message}`},
    ])
  }
  if (plain.otp_code !== SANDBOX_OTP) throw new HttpError(401, 'UNAUTHORIZED', 'Invalid OTP code')
  try {
    compressPublicKey(plain.public_key)
  } catch {
    throw invalid([
      {field: 'encryptedOtpBundle', message: 'public_key inside the bundle is not a P-256 public key in SEC1 hex'},
    ])
  }
  return plain
}
