import type {ApiRequest, Method} from '../../api/client.js'
import {embeddedWalletIds, embeddedWalletsOf} from '../../api/wallet.js'
import type {Context} from '../../context.js'
import {usageError} from '../../errors.js'
import type {KeyStore} from '../../keystore.js'
import type {SuccessRule} from '../../wallet/signed-retry.js'
import {engineFor, keyStoreFor, requireSession, signerFor} from './common.js'
import {refusalPayload} from './ops.js'

/** Spec 5.4 rule 3 by endpoint: add credential, refresh and revokes succeed with 201/204 only. */
export function successRuleFor(method: Method, path: string[]): SuccessRule {
  const p = path.join('/')
  if (method === 'DELETE' && /^auth\/(credentials|sessions)\/[^/]+$/.test(p)) return 'created'
  if (method === 'POST' && (p === 'auth/credentials' || /^auth\/sessions\/[^/]+\/refresh$/.test(p))) return 'created'
  return 'ok'
}

/** `svc api` builds it; walletSignature.accountId is --account, when given. */
type RawRequest = ApiRequest

/** The signing wallet: --account, else the path, body or query, else the key store or the customer's wallets. */
async function signingAccount(ctx: Context, keys: KeyStore, req: RawRequest, hinted?: string): Promise<string> {
  const [a, b, c] = req.path
  const body = (req.body ?? {}) as Record<string, unknown>
  let accountId =
    req.walletSignature?.accountId ??
    hinted ??
    (a === 'internal-accounts' ? b : undefined) ??
    (typeof body.accountId === 'string' ? body.accountId : undefined) ??
    (typeof req.query?.accountId === 'string' ? req.query.accountId : undefined)
  if (!accountId && a === 'auth' && c)
    accountId = keys.list({kind: 'session'}).find((r) => r.sessionId === c || r.credentialId === c)?.accountId
  if (!accountId && a === 'customers' && b)
    accountId = embeddedWalletIds(await ctx.client.call(embeddedWalletsOf(b))).find((id) =>
      keys.findSession({accountId: id}),
    )
  if (!accountId)
    throw usageError('--sign cannot tell which wallet signs this request', 'Pass --account InternalAccount:<id>.')
  return accountId
}

/**
 * `svc api ... --sign`: any endpoint through the signed-retry engine, with the signer rule of
 * api-gaps 5.5 for that endpoint. A one-shot refusal that carries the payload (quote execute from
 * an embedded wallet: 401 WALLET_SIGNATURE_MISSING with details.payloadToSign) is stamped and sent again.
 */
export async function signedRawRequest(ctx: Context, req: RawRequest) {
  const keys = keyStoreFor(ctx)
  const [a, b, c, d] = req.path
  const rule: {excludeCredentialId?: string; sessionId?: string} = {}
  if (a === 'auth' && b === 'credentials' && c && req.method === 'DELETE') rule.excludeCredentialId = c
  if (a === 'auth' && b === 'sessions' && c && d === 'refresh') rule.sessionId = c
  const op = {
    ...req,
    success: successRuleFor(req.method, req.path),
    what: `${req.method} /${req.path.join('/')}`,
    resume:
      'Re-run the same `svc api ... --sign` command; list credentials or sessions to see what the service settled.',
  }
  const sign = async (payloadToSign: string, hinted?: string) => {
    const session = requireSession(keys, await signingAccount(ctx, keys, req, hinted), rule)
    return signerFor(keys, session)({payloadToSign, requestId: '', expiresAt: ''})
  }
  const engine = engineFor(ctx)
  try {
    return await engine.run(op, (challenge) => sign(challenge.payloadToSign))
  } catch (error) {
    const refusal = refusalPayload(error)
    if (!refusal) throw error
    const headers = {...req.headers, 'service-wallet-signature': await sign(refusal.payloadToSign, refusal.accountId)}
    return engine.run({...op, headers}, (challenge) => sign(challenge.payloadToSign))
  }
}
