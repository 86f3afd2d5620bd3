import {embeddedWalletsOf} from '../api/wallet.js'
import type {Method} from '../api/client.js'
import type {Context} from '../context.js'
import {usageError} from '../errors.js'
import type {SuccessRule} from '../wallet/signed-retry.js'
import {engineFor, keyStoreFor, requireSession, signerFor} from './wallet-common.js'

/** Spec 5.4 rule 3 by endpoint: add credential, refresh and revokes succeed with 201/204 only. */
export function successRuleFor(method: Method, path: string[]): SuccessRule {
  const p = path.join('/')
  if (method === 'DELETE' && /^auth\/(credentials|sessions)\/[^/]+$/.test(p)) return 'created'
  if (method === 'POST' && (p === 'auth/credentials' || /^auth\/sessions\/[^/]+\/refresh$/.test(p))) return 'created'
  return 'ok'
}

/**
 * `svc api ... --sign`: any endpoint through the signed-retry engine. The signing wallet comes from
 * --account, else from the path or body, with the signer rule of api-gaps 5.5 for that endpoint.
 */
export async function signedRawRequest(ctx: Context, req: {method: Method; path: string[]; query?: Record<string, string>; body?: unknown; headers?: Record<string, string>; account?: string}) {
  const keys = keyStoreFor(ctx)
  const [a, b, c, d] = req.path
  const body = (req.body ?? {}) as Record<string, unknown>
  let accountId = req.account ?? (a === 'internal-accounts' ? b : undefined) ?? (typeof body.accountId === 'string' ? body.accountId : undefined) ?? req.query?.accountId
  const signerRule: {excludeCredentialId?: string; sessionId?: string} = {}
  if (a === 'auth' && b === 'credentials' && c && req.method === 'DELETE') signerRule.excludeCredentialId = c
  if (a === 'auth' && b === 'sessions' && c && d === 'refresh') signerRule.sessionId = c
  if (!accountId && a === 'auth' && c) {
    const owner = keys.list({kind: 'session'}).find((r) => r.sessionId === c || r.credentialId === c)
    accountId = owner?.accountId
  }
  if (!accountId && a === 'customers' && b) accountId = (await embeddedWalletsOf(ctx.client, b)).find((id) => keys.findSession({accountId: id}))
  if (!accountId) throw usageError('--sign cannot tell which wallet signs this request', 'Pass --account InternalAccount:<id>.')
  const session = requireSession(keys, accountId, signerRule)
  const op = {
    method: req.method, path: req.path, query: req.query, body: req.body, headers: req.headers, success: successRuleFor(req.method, req.path),
    what: `${req.method} /${req.path.join('/')}`, resume: 'Re-run the same `svc api ... --sign` command; list credentials or sessions to see what the service settled.',
  }
  return engineFor(ctx).run(op, signerFor(keys, session))
}
