import type {IncomingHttpHeaders} from 'node:http'
import type {StoredAgent} from '../store/agents.js'
import {HttpError} from '../http-error.js'
import type {Principal} from '../principal.js'
import {requireLiveGrant, requiresLiveGrant} from './agent-grants.js'
import {type CredentialStore, resolvePrincipal, unauthorized} from './principal-of.js'
import {Router} from '../router.js'
import type {AuthzEntry} from './table.js'

/** The router's matcher over the table: an entry is found without its handler. */
const TABLE = new Router()

/** The table's entry for a concrete request path (under the version prefix), or undefined. */
export function entryFor(method: string, path: string): AuthzEntry | undefined {
  return TABLE.find(method, path)?.op
}

/**
 * First half of admission, before the route is looked up: the principal behind the credentials a
 * route of this kind takes (public routes take none, and a path the table does not know takes the
 * platform's). Bad or missing credentials are 401 here, before anything else is said about the path.
 */
export function principalFor(
  ctx: CredentialStore,
  entry: AuthzEntry | undefined,
  headers: IncomingHttpHeaders,
): Principal {
  if (entry?.who.kind === 'public') return {kind: 'public'}
  return resolvePrincipal(ctx, headers, entry?.who.kind === 'agent' ? 'agent' : 'platform')
}

const forbidden = (reason: string, details: Record<string, unknown>) => new HttpError(403, 'FORBIDDEN', reason, details)

/**
 * Second half, once the route exists: the table must name it (fail closed), and the principal must
 * be the kind it takes with the permission it needs. Runs before the body is read.
 */
export function authorize(
  ctx: CredentialStore & {log: (line: string) => void},
  entry: AuthzEntry | undefined,
  principal: Principal,
  method: string,
  path: string,
): void {
  if (!entry) {
    ctx.log(`authz: ${method} ${path} has a route but no entry in the authorization table; refused`)
    throw forbidden(`${method} ${path} is not in the sandbox's authorization table, so nobody may call it`, {})
  }
  const who = entry.who
  const operation = entry.operationId ?? `${entry.method} ${entry.path}`
  if (who.kind === 'public') return
  if (who.kind === 'platform') {
    if (principal.kind !== 'platform')
      throw unauthorized('Platform routes take HTTP Basic <token id>:<client secret>', false)
    if (!who.anyOf.some((p) => principal.permissions.includes(p))) {
      throw forbidden(
        `This API token's permissions (${principal.permissions.join(', ') || 'none'}) do not allow ${operation}; it needs ${who.anyOf.join(' or ')}`,
        {operation, required: who.anyOf, granted: principal.permissions},
      )
    }
    return
  }
  if (principal.kind !== 'agent') throw unauthorized('Agent routes take the agent access token', true)
  const a = ctx.db.get<StoredAgent>('agents', principal.agentId)
  if (!a) throw unauthorized('The agent access token is not valid (the agent was deleted)', true)
  const customer = ctx.db.get<{isDeleted?: boolean}>('customers', a.customerId)
  if (!customer || customer.isDeleted)
    throw forbidden(`${a.customerId}, the customer ${a.id} acts for, was deleted, so ${a.id} may do nothing`, {
      agentId: a.id,
      customerId: a.customerId,
      operation,
    })
  // "Paused agents cannot initiate any actions": every call that is not a read; reads answer as for a running agent.
  if (a.isPaused && method !== 'GET') throw forbidden(`${a.id} is paused by the platform`, {agentId: a.id, operation})
  if (who.needs && !a.policy.permissions.includes(who.needs))
    throw forbidden(`${a.id}'s policy does not grant ${who.needs}`, {agentId: a.id, permission: who.needs, operation})
  if (requiresLiveGrant(entry)) requireLiveGrant(ctx.db, a, operation)
}
