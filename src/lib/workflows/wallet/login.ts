import {
  type AuthMethod,
  type AuthSession,
  authMethodSchema,
  authSessionSchema,
  type CredentialType,
  listCredentials,
  walletOps,
} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {InputError, SvcError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import type {KeyStore, PublicKeyRecord} from '../../keystore.js'
import {Secret} from '../../secret.js'
import {
  bytesToHex,
  decryptCredentialBundle,
  encryptOtpBundle,
  generateP256KeyPair,
  type P256KeyPair,
  publicKeyFromPrivate,
} from '../../wallet/index.js'
import {cryptoFailure, engineFor, envelopeTrust, memorySigner, writableKeyStore} from './common.js'
import {withArticle} from '../../article.js'

export interface LoginResult {
  /** Without encryptedSessionSigningKey. */
  session: AuthSession
  key: PublicKeyRecord
}

/** Picks the credential to log in with: the one named, else the only one of the type asked for. */
export async function resolveCredential(
  ctx: Context,
  accountId: string,
  opts: {credentialId?: string; type?: CredentialType},
): Promise<AuthMethod> {
  const all = (await ctx.client.call(listCredentials(accountId))).data
  if (opts.credentialId) {
    const found = all.find((c) => c.id === opts.credentialId)
    if (!found)
      throw new SvcError({
        code: 'AUTH_METHOD_NOT_FOUND',
        message: `${opts.credentialId} is not a credential of ${accountId}`,
        exitCode: ExitCode.NOT_FOUND,
        hint: `List them with \`svc wallet credentials list ${accountId}\`.`,
      })
    if (opts.type && found.type !== opts.type)
      throw new InputError([
        {field: 'type', message: `${opts.credentialId} is ${withArticle(found.type)} credential, not ${opts.type}`},
      ])
    return found
  }
  const type = opts.type ?? (all.length === 1 ? all[0].type : 'EMAIL_OTP')
  const matching = all.filter((c) => c.type === type)
  if (matching.length === 1) return matching[0]
  throw new SvcError({
    code: matching.length ? 'CREDENTIAL_AMBIGUOUS' : 'AUTH_METHOD_NOT_FOUND',
    message: matching.length
      ? `${accountId} has ${matching.length} ${type} credentials`
      : `${accountId} has no ${type} credential`,
    exitCode: matching.length ? ExitCode.USAGE : ExitCode.NOT_FOUND,
    hint: matching.length
      ? `Pick one with --credential (see \`svc wallet credentials list ${accountId}\`).`
      : addHint(accountId, type),
  })
}

/** No credential of the type asked for: it has to be added (signed by a session of one the wallet has) before anyone logs in with it. */
function addHint(accountId: string, type: string): string {
  const needs = type === 'SMS_OTP' ? " (it sends codes to the customer's phoneNumber)" : ''
  return `Add one first with \`svc wallet credentials add ${accountId} --type ${type}\`${needs}, signed by a session of a credential the wallet has (\`svc wallet login ${accountId}\`); see \`svc wallet credentials list ${accountId}\`.`
}

/** Stores the session key and returns what may be shown (never the key). */
export async function storeSession(
  ctx: Context,
  keys: KeyStore,
  credential: Pick<AuthMethod, 'id' | 'type' | 'accountId'>,
  session: AuthSession,
  clientKey: P256KeyPair,
): Promise<LoginResult> {
  let privateKey = clientKey.privateKey
  if (session.encryptedSessionSigningKey) {
    // Legacy mode (uncompressed clientPublicKey): the session key comes sealed to our client key.
    privateKey = await decryptCredentialBundle(session.encryptedSessionSigningKey, clientKey.privateKey).catch((e) =>
      cryptoFailure(e, 'The session key bundle could not be opened'),
    )
  }
  const shown: AuthSession = {...session}
  delete shown.encryptedSessionSigningKey
  const key = keys.save({
    kind: 'session',
    accountId: session.accountId || credential.accountId,
    credentialId: credential.id,
    credentialType: credential.type,
    sessionId: session.id,
    publicKey: bytesToHex(publicKeyFromPrivate(privateKey, true)),
    expiresAt: session.expiresAt,
    privateKey: new Secret(bytesToHex(privateKey)),
  })
  return {session: shown, key}
}

/**
 * EMAIL_OTP / SMS_OTP (spec 5.2): a fresh OTP challenge unless a target bundle is at hand, a new
 * P-256 target key, the HPKE bundle, verify -> 202 -> stamp with that key -> session.
 */
export async function loginWithOtp(
  ctx: Context,
  credential: AuthMethod,
  opts: {otp: () => Promise<Secret>; targetBundle?: string; allowUnsigned?: boolean},
): Promise<LoginResult> {
  const keys = await writableKeyStore(ctx)
  const engine = engineFor(ctx)
  let bundle = opts.targetBundle
  if (!bundle) {
    const res = await engine.run(walletOps.challenge(credential.id), () => {
      throw new SvcError({
        code: 'RESPONSE_INVALID',
        message: 'The OTP challenge unexpectedly asked for a signature',
        exitCode: ExitCode.FAILED,
      })
    })
    bundle = ctx.client.parse(authMethodSchema, res.body, 'OTP challenge').otpEncryptionTargetBundle
    if (!bundle)
      throw new SvcError({
        code: 'RESPONSE_INVALID',
        message: 'The OTP challenge carried no otpEncryptionTargetBundle',
        exitCode: ExitCode.FAILED,
      })
  }
  const trust = await envelopeTrust(ctx, opts.allowUnsigned)
  const target = generateP256KeyPair()
  const publicKey = bytesToHex(target.publicKeyCompressed)
  const otp = await opts.otp()
  const encryptedOtpBundle = await encryptOtpBundle({
    targetBundle: bundle,
    otpCode: otp.reveal(),
    publicKey,
    ...trust,
  }).catch((e) => cryptoFailure(e, 'The OTP target bundle failed verification'))
  const res = await engine.run(
    walletOps.verify(credential.id, {type: credential.type, encryptedOtpBundle}, credential.accountId),
    memorySigner(target.privateKey),
  )
  const session = ctx.client.parse(authSessionSchema, res.body, 'session')
  return storeSession(ctx, keys, credential, session, target)
}

/** The OTP to use: the sandbox's documented 000000, or the operator's (stdin or a hidden prompt). */
export function otpSource(
  ctx: Context,
  opts: {otpStdin?: boolean; readStdin: () => Promise<string>; prompt: () => Promise<string>},
): () => Promise<Secret> {
  return async () => {
    if (opts.otpStdin) return checkOtp(new Secret((await opts.readStdin()).trim()))
    if (ctx.profile.environment !== 'production' && !opts.otpStdin) return new Secret('000000')
    return checkOtp(new Secret((await opts.prompt()).trim()))
  }
}

function checkOtp(otp: Secret): Secret {
  if (!/^[0-9A-Za-z]{4,12}$/.test(otp.reveal()))
    throw new InputError([{field: 'otp', message: 'must be the 4-12 character code from the message'}])
  return otp
}
