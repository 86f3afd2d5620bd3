import {createHash, timingSafeEqual} from 'node:crypto'
import type {IncomingHttpHeaders} from 'node:http'
import type {SandboxContext} from '../context.js'
import {HttpError} from '../http-error.js'
import type {Permission, Principal} from '../principal.js'
import type {StoredAgent} from '../store/agents.js'
import type {Db} from '../store/db.js'
import {tokenByClientId} from '../store/tokens.js'

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest()
const ALL: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE']

const basicRealm = {'www-authenticate': 'Basic realm="svc local sandbox"'}
const bearerRealm = {'www-authenticate': 'Bearer realm="svc local sandbox agents"'}
export const unauthorized = (reason: string, agentRoute: boolean) =>
  new HttpError(401, 'UNAUTHORIZED', reason, undefined, agentRoute ? bearerRealm : basicRealm)

/** What resolving a caller needs of the sandbox: its records, and its own credentials. */
export interface CredentialStore {
  readonly db: Db
  readonly credentials: {tokenId: string; clientSecret: string}
}

/**
 * Who is calling, from the Authorization header, for a route that takes `expected` credentials:
 * Basic for the platform (the sandbox's own credentials hold every permission; a token made with
 * POST /tokens holds its own), Bearer for an agent. Missing, unknown or the other kind: 401.
 */
export function resolvePrincipal(
  ctx: CredentialStore,
  headers: IncomingHttpHeaders,
  expected: 'platform' | 'agent',
): Principal {
  const header = headers.authorization ?? ''
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)
  if (expected === 'agent') {
    if (!bearer)
      throw unauthorized(
        'Agent routes take the agent access token (Authorization: Bearer <accessToken> from device-code redemption), not platform credentials',
        true,
      )
    const a = agentOfToken(ctx, bearer[1])
    if (!a)
      throw unauthorized(
        'The agent access token is not valid (revoked, replaced by a newer device code, or the agent was deleted)',
        true,
      )
    return {kind: 'agent', agentId: a.id, customerId: a.customerId}
  }
  if (/^Bearer\s/i.test(header))
    throw unauthorized(
      'An agent access token is accepted only on /agents/me routes; platform routes take HTTP Basic <token id>:<client secret>',
      false,
    )
  const m = /^Basic\s+(.+)$/i.exec(header)
  const given = m ? Buffer.from(m[1], 'base64') : Buffer.alloc(0)
  const own = Buffer.from(`${ctx.credentials.tokenId}:${ctx.credentials.clientSecret}`)
  if (given.length === own.length && timingSafeEqual(given, own))
    return {kind: 'platform', tokenId: ctx.credentials.tokenId, permissions: ALL, own: true}
  // Tokens made with POST /tokens: `<clientId>:<clientSecret>`, looked up by clientId; the secret compared as a hash, in constant time.
  const colon = given.indexOf(':')
  const token = colon > 0 ? tokenByClientId(ctx.db, given.subarray(0, colon).toString('utf8')) : undefined
  if (token && timingSafeEqual(sha256(given.subarray(colon + 1)), Buffer.from(token.secretSha256, 'hex')))
    return {
      kind: 'platform',
      tokenId: token.id,
      permissions: token.permissions.filter((p): p is Permission => (ALL as readonly string[]).includes(p)),
    }
  throw unauthorized('Missing or invalid API credentials (HTTP Basic <token id>:<client secret>)', false)
}

/** The agent whose current access token this is (only its SHA-256 is stored). */
function agentOfToken(ctx: CredentialStore, token: string): StoredAgent | undefined {
  const hash = sha256(token).toString('hex')
  const entry = ctx.db.get<{agentId: string}>('agentTokens', hash)
  const a = entry ? ctx.db.get<StoredAgent>('agents', entry.agentId) : undefined
  if (!a || !a._.tokenHash || !timingSafeEqual(Buffer.from(a._.tokenHash), Buffer.from(hash))) return undefined
  return a
}

/** The calling agent's current record (the server admitted the request as this agent). */
export function callingAgent(ctx: SandboxContext): StoredAgent {
  const p = ctx.principal
  const a = p?.kind === 'agent' ? ctx.db.get<StoredAgent>('agents', p.agentId) : undefined
  if (!a) throw unauthorized('Agent routes take the agent access token', true)
  return a
}

/** The principal's part of a key it owns (idempotency): the token id, or the agent id. */
export function principalKey(p: Principal | undefined): string {
  if (!p) return 'system'
  if (p.kind === 'platform') return `token:${p.tokenId}`
  if (p.kind === 'agent') return `agent:${p.agentId}`
  return p.kind
}
