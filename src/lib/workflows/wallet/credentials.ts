import {walletOps, type AuthMethod, type CredentialType} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {type FieldError, InputError} from '../../errors.js'
import {promptSecret} from '../../prompts.js'
import {checkOidcToken} from '../../wallet/oidc.js'
import type {SignedOperation} from '../../wallet/signed-retry.js'
import {readSecretInput} from './input.js'
import {loginWithOtp, otpSource} from './login.js'
import {addCredential} from './ops.js'

export interface AddCredentialOptions {
  oidcTokenStdin?: boolean
  nickname?: string
  registration?: unknown
  challenge?: string
  activate?: boolean
  allowUnsigned?: boolean
}

const NICKNAME = /^[A-Za-z0-9 ._'()-]{1,100}$/
const B64URL = /^[A-Za-z0-9_-]+$/
const TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid']

/** PASSKEY body (api-gaps 5.2) from a registration JSON; every bad field named before any request. */
export function passkeyFields(opts: AddCredentialOptions): Record<string, unknown> {
  const reg = (opts.registration ?? {}) as Record<string, unknown>
  const response = (reg.response && typeof reg.response === 'object' ? reg.response : reg) as Record<string, unknown>
  const attestation = {
    credentialId: reg.credentialId ?? reg.rawId ?? reg.id,
    clientDataJson: response.clientDataJSON ?? response.clientDataJson,
    attestationObject: response.attestationObject,
    ...(Array.isArray(reg.transports ?? response.transports)
      ? {transports: reg.transports ?? response.transports}
      : {}),
  }
  const challenge = opts.challenge ?? reg.challenge
  const errors: FieldError[] = []
  if (typeof opts.nickname !== 'string' || !NICKNAME.test(opts.nickname))
    errors.push({field: 'nickname', message: "is required: 1-100 letters, digits, spaces or . _ - ' ( )"})
  if (opts.registration === undefined)
    errors.push({
      field: 'attestation',
      message: 'is required: the registration JSON (`svc sandbox passkey create` writes one)',
    })
  for (const key of ['credentialId', 'clientDataJson', 'attestationObject'] as const) {
    if (
      opts.registration !== undefined &&
      (typeof attestation[key] !== 'string' || !B64URL.test(attestation[key] as string))
    )
      errors.push({field: `attestation.${key}`, message: 'must be base64url text'})
  }
  if (attestation.transports && !(attestation.transports as unknown[]).every((t) => TRANSPORTS.includes(t as string)))
    errors.push({field: 'attestation.transports', message: `each must be one of ${TRANSPORTS.join(', ')}`})
  if (typeof challenge !== 'string' || !B64URL.test(challenge))
    errors.push({
      field: 'challenge',
      message:
        'is required: the base64url registration challenge (--challenge, or "challenge" in the registration JSON)',
    })
  if (errors.length) throw new InputError(errors)
  return {nickname: opts.nickname, challenge, attestation}
}

/**
 * The add request (walletOps.addCredential): PASSKEY's registration, OAUTH's OIDC token, checked
 * before anything is sent. A dry run asks for no token: it would be shown redacted anyway.
 */
export async function addCredentialOp(
  ctx: Context,
  accountId: string,
  type: CredentialType,
  opts: AddCredentialOptions & {dryRun?: boolean},
): Promise<SignedOperation & {accountId: string}> {
  let fields: Record<string, unknown> = {}
  if (type === 'PASSKEY') fields = passkeyFields(opts)
  if (type === 'OAUTH') {
    if (opts.dryRun && !opts.oidcTokenStdin) fields = {oidcToken: '[REDACTED]'}
    else {
      const token = await readSecretInput(ctx, {
        stdin: opts.oidcTokenStdin,
        flag: 'oidc-token-stdin',
        prompt: 'OIDC ID token',
      })
      const {problems} = checkOidcToken(token.reveal(), {nowMs: ctx.now()})
      if (problems.length)
        throw new InputError(problems, undefined, 'Mint a fresh token (iat within 60 s); cached tokens fail.')
      fields = {oidcToken: token.reveal()}
    }
  }
  return {...walletOps.addCredential({type, accountId, ...fields}), accountId}
}

/**
 * Spec 5.3 rule 6: add through the signed retry, then activate like the first of its type. OTP
 * credentials log in at once (the registration's target bundle when present, else /challenge).
 */
export async function addCredentialFlow(
  ctx: Context,
  op: SignedOperation & {accountId: string},
  type: CredentialType,
  opts: AddCredentialOptions,
): Promise<{credential: AuthMethod; session?: {id: string; expiresAt: string}; next?: string}> {
  const accountId = op.accountId
  const credential = await addCredential(ctx, op)
  const login = `svc wallet login ${accountId} --credential ${credential.id}`
  if (type === 'OAUTH')
    return {credential, next: `${login} --print-nonce, mint a token with that nonce, then ${login} --oidc-token-stdin`}
  if (type === 'PASSKEY')
    return {credential, next: `${login} (prints the challenge), sign it, then ${login} --assertion @assertion.json`}
  if (opts.activate === false) return {credential, next: login}
  const otp = otpSource(ctx, {
    readStdin: async () => '',
    prompt: () =>
      promptSecret(`Code sent for ${credential.nickname ?? credential.id}`, {
        onAbort: `the code was not used and no session was created; \`svc wallet login ${accountId} --credential ${credential.id}\` sends a new one`,
      }),
  })
  const result = await loginWithOtp(ctx, credential, {
    otp,
    targetBundle: credential.otpEncryptionTargetBundle,
    allowUnsigned: opts.allowUnsigned,
  })
  return {credential: stripBundle(credential), session: {id: result.session.id, expiresAt: result.session.expiresAt}}
}

function stripBundle(credential: AuthMethod): AuthMethod {
  const {otpEncryptionTargetBundle: _bundle, ...rest} = credential
  return rest as AuthMethod
}
