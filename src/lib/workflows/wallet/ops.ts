import {
  type AuthMethod,
  authMethodSchema,
  authSessionSchema,
  type CredentialType,
  embeddedWalletIds,
  embeddedWalletsOf,
  listCredentials,
  walletOps,
} from '../../api/wallet.js'
import type {SignedOperation} from '../../wallet/signed-retry.js'
import type {ApiRequest} from '../../api/request.js'
import type {Context} from '../../context.js'
import {ApiError, SvcError} from '../../errors.js'
import {explainWalletAuthError} from '../../wallet/signed-retry-errors.js'
import {ExitCode} from '../../exit-codes.js'
import {bytesToHex, generateP256KeyPair} from '../../wallet/index.js'
import {accountFor, engineFor, keyStoreFor, noSession, requireSession, signerFor, writableKeyStore} from './common.js'
import {type LoginResult, storeSession} from './login.js'

/** A refresh's clientPublicKey as --dry-run shows it: the key pair is generated only when the request is sent. */
export const NEW_SESSION_KEY = '{a new P-256 public key, generated when sent}'

/** Refresh (api-gaps 5.5): signed by the session being refreshed; a new key pair becomes its key. */
export async function refreshSession(ctx: Context, accountId: string, sessionId: string): Promise<LoginResult> {
  const keys = await writableKeyStore(ctx)
  const old = requireSession(keys, accountId, {sessionId})
  const kp = generateP256KeyPair()
  const res = await engineFor(ctx).run(
    walletOps.refreshSession(sessionId, bytesToHex(kp.publicKeyCompressed), accountId),
    signerFor(keys, old),
  )
  const session = ctx.client.parse(authSessionSchema, res.body, 'session')
  const credential = {id: old.credentialId, type: old.credentialType as CredentialType, accountId}
  const result = await storeSession(ctx, keys, credential, session, kp)
  if (result.key.id !== old.id) keys.remove(old.id)
  return result
}

/** Revoke a session (walletOps.revokeSession): any verified session of the account may sign (itself included). */
export async function revokeSession(ctx: Context, op: SignedOperation): Promise<{revoked: string; signedBy: string}> {
  const sessionId = op.path[2]
  const accountId = accountFor(ctx, op.accountId, {sessionId})
  const keys = keyStoreFor(ctx)
  const signer = keys.findSession({accountId, minRemainingMs: 5000, sessionId: undefined})
  if (!signer) throw noSession(accountId, 'revoking a session is signed by a session of the same account')
  await engineFor(ctx).run({...op, accountId}, signerFor(keys, signer))
  for (const r of keys.list({accountId, kind: 'session'})) if (r.sessionId === sessionId) keys.remove(r.id)
  return {revoked: sessionId, signedBy: signer.sessionId ?? signer.publicKey}
}

/** Spec 5.3 rule 5 (walletOps.revokeCredential): a session of a different credential signs; the last credential is refused locally. */
export async function revokeCredential(
  ctx: Context,
  op: SignedOperation,
): Promise<{revoked: string; sessionsRemoved: number}> {
  const credentialId = op.path[2]
  const accountId = accountFor(ctx, op.accountId, {credentialId})
  const credentials = (await ctx.client.call(listCredentials(accountId))).data
  if (!credentials.some((c) => c.id === credentialId)) {
    throw new SvcError({
      code: 'AUTH_METHOD_NOT_FOUND',
      message: `${credentialId} is not a credential of ${accountId}`,
      exitCode: ExitCode.NOT_FOUND,
      hint: `List them with \`svc wallet credentials list ${accountId}\`.`,
    })
  }
  if (credentials.length <= 1) {
    throw new SvcError({
      code: 'LAST_CREDENTIAL',
      message: `${credentialId} is the only credential of ${accountId}; an account keeps at least one`,
      exitCode: ExitCode.CONFLICT,
      hint: 'Add another credential first (`svc wallet credentials add`), log in with it, then revoke this one.',
    })
  }
  const keys = keyStoreFor(ctx)
  const signer = requireSession(keys, accountId, {excludeCredentialId: credentialId})
  await engineFor(ctx).run({...op, accountId}, signerFor(keys, signer))
  // Its sessions are revoked with it (rule 5): drop their keys here too.
  const stale = keys.list({accountId, kind: 'session'}).filter((r) => r.credentialId === credentialId)
  for (const r of stale) keys.remove(r.id)
  return {revoked: credentialId, sessionsRemoved: stale.length}
}

/** Adds a credential (walletOps.addCredential, signed by any session of the account); returns the new AuthMethod. */
export async function addCredential(ctx: Context, op: SignedOperation & {accountId: string}): Promise<AuthMethod> {
  const keys = keyStoreFor(ctx)
  const signer = requireSession(keys, op.accountId)
  const res = await engineFor(ctx).run(op, signerFor(keys, signer))
  return ctx.client.parse(authMethodSchema, res.body, 'credential')
}

/** walletOps.privacy, signed by a session of the wallet. */
export async function setPrivacy(
  ctx: Context,
  op: SignedOperation & {accountId: string},
): Promise<Record<string, unknown>> {
  const keys = keyStoreFor(ctx)
  const res = await engineFor(ctx).run(op, signerFor(keys, requireSession(keys, op.accountId)))
  return res.body as Record<string, unknown>
}

/**
 * PATCH customer through the engine: a plain 200 when nothing tied changes; a 202 when an email
 * (or phone) is tied to a wallet credential, signed with a session of one of the customer's wallets.
 */
export async function updateCustomerSigned(
  ctx: Context,
  op: SignedOperation,
): Promise<{status: number; body: unknown}> {
  const customerId = op.path[1]
  const keys = keyStoreFor(ctx)
  return engineFor(ctx).run(op, async (challenge) => {
    const wallets = embeddedWalletIds(await ctx.client.call(embeddedWalletsOf(customerId)))
    const session = keys.findSession({accountIds: wallets, minRemainingMs: 5000})
    if (!session)
      throw noSession(
        wallets[0] ?? customerId,
        `${customerId}'s email or phone is tied to a wallet credential, so the change is signed by a wallet session`,
      )
    return signerFor(keys, session)(challenge)
  })
}

/**
 * Quote execute from an embedded wallet (api-gaps 4.1): the quote carries payloadToSign; the header
 * is a stamp with a session of the source wallet. Undefined for quotes that need no signature.
 */
export async function signedHeadersForQuote(
  ctx: Context,
  quote: Record<string, unknown>,
): Promise<Record<string, string> | undefined> {
  const payloadToSign = findPayloadToSign(quote)
  if (payloadToSign === undefined) return undefined
  const source = (quote.source ?? {}) as Record<string, unknown>
  const accountId = typeof source.accountId === 'string' ? source.accountId : undefined
  if (!accountId)
    throw new SvcError({
      code: 'RESPONSE_INVALID',
      message: `Quote ${String(quote.id)} asks for a wallet signature but names no source account`,
      exitCode: ExitCode.FAILED,
    })
  const keys = keyStoreFor(ctx)
  const session = requireSession(keys, accountId)
  return {'service-wallet-signature': await signerFor(keys, session)({payloadToSign, requestId: '', expiresAt: ''})}
}

function findPayloadToSign(quote: Record<string, unknown>): string | undefined {
  if (typeof quote.payloadToSign === 'string') return quote.payloadToSign
  for (const pi of Array.isArray(quote.paymentInstructions) ? quote.paymentInstructions : []) {
    const p = pi as Record<string, unknown>
    const info = (p.accountOrWalletInfo ?? {}) as Record<string, unknown>
    if (typeof p.payloadToSign === 'string') return p.payloadToSign
    if (typeof info.payloadToSign === 'string') return info.payloadToSign
  }
  return undefined
}

/** The payload of a one-shot signature refusal (401 WALLET_SIGNATURE_MISSING carrying details.payloadToSign). */
export function refusalPayload(error: unknown): {payloadToSign: string; accountId?: string} | undefined {
  // Also after the engine explained it: the explanation keeps status, code and details.
  if (!(error instanceof SvcError) || error.status !== 401 || error.code !== 'WALLET_SIGNATURE_MISSING')
    return undefined
  const {payloadToSign, accountId} = (error.details ?? {}) as Record<string, unknown>
  return typeof payloadToSign === 'string'
    ? {payloadToSign, ...(typeof accountId === 'string' ? {accountId} : {})}
    : undefined
}

/**
 * For `svc quote execute`: sends with the wallet signature when the quote carries its payload;
 * when the service refuses with the payload instead (401 WALLET_SIGNATURE_MISSING), stamps it with a
 * session of the source wallet and sends once more (same Idempotency-Key: a refused call paid nothing).
 */
export async function executeWithWalletSignature<T>(
  ctx: Context,
  quote: Record<string, unknown>,
  req: ApiRequest<T>,
): Promise<T> {
  const send = (headers?: Record<string, string>) =>
    ctx.client.call(headers ? {...req, headers: {...req.headers, ...headers}} : req)
  const what = `execution of ${String(quote.id)}`
  const explain = (e: unknown) => (e instanceof ApiError ? explainWalletAuthError(e, what) : e)
  const headers = await signedHeadersForQuote(ctx, quote)
  try {
    return await send(headers)
  } catch (error) {
    const refusal = refusalPayload(error)
    if (headers || !refusal) throw explain(error)
    const source = (quote.source ?? {}) as Record<string, unknown>
    const accountId = refusal.accountId ?? (typeof source.accountId === 'string' ? source.accountId : undefined)
    if (!accountId) throw explain(error)
    const keys = keyStoreFor(ctx)
    const signature = await signerFor(
      keys,
      requireSession(keys, accountId),
    )({payloadToSign: refusal.payloadToSign, requestId: '', expiresAt: ''})
    return send({'service-wallet-signature': signature}).catch((e) => {
      throw explain(e)
    })
  }
}
