import type {AgentPolicy} from '../../lib/schemas/agents.js'
import type {SandboxContext} from '../context.js'
import {HttpError} from '../http-error.js'
import type {AgentGrant, StoredAgent} from '../store/agents.js'
import type {Db} from '../store/db.js'
import type {StoredToken} from '../store/tokens.js'
import {AUTHZ_TABLE, type AgentPermission, type AuthzEntry} from './table.js'

/**
 * The delegation half of the authorization table (each entry's `delegation`): what only the body
 * tells, checked here once the domain knows it. The rule: no principal moves money through an
 * agent that it could not move directly. So whoever lets an agent move more money must hold
 * TRANSACT, the agent's payments stop when that grant is deleted, and a same-currency quote is the
 * transfer the contract gives to CREATE_TRANSFERS.
 */

const BY_OPERATION = new Map<string, AuthzEntry>(
  AUTHZ_TABLE.filter((e) => e.operationId).map((e) => [e.operationId!, e]),
)
const delegationOf = (operationId: string) => BY_OPERATION.get(operationId)?.delegation

const forbidden = (reason: string, details: Record<string, unknown>) => new HttpError(403, 'FORBIDDEN', reason, details)

/** The policy permissions that move a customer's money (CREATE_QUOTES only prices a payment). */
export const MONEY_PERMISSIONS: readonly AgentPermission[] = ['CREATE_TRANSFERS', 'EXECUTE_QUOTES']
export const canMoveMoney = (p: AgentPolicy): boolean => p.permissions.some((x) => MONEY_PERMISSIONS.includes(x))

type Limit = number | null | undefined
/** An absent limit is no limit: removing one raises it. */
const raised = (before: Limit, after: Limit) => before != null && (after == null || after > before)

/**
 * Every way `after` lets the agent move more money than `before` did (a new agent: `before`
 * undefined, so its money permissions). A changed limit or threshold currency counts as widening:
 * every amount is re-denominated, and a threshold in one currency is not comparable with another's.
 */
export function widenings(before: AgentPolicy | undefined, after: AgentPolicy): string[] {
  const why: string[] = []
  for (const p of MONEY_PERMISSIONS)
    if (after.permissions.includes(p) && !before?.permissions.includes(p)) why.push(`grants ${p}`)
  if (!before) return why
  const [bl, al] = [before.spendingLimits, after.spendingLimits]
  if (bl.currency !== al.currency) why.push(`re-denominates the spending limits from ${bl.currency} to ${al.currency}`)
  for (const k of ['perTransactionLimit', 'dailyLimit', 'monthlyLimit', 'dailyTransactionLimit'] as const)
    if (raised(bl[k], al[k])) why.push(`raises spendingLimits.${k}`)
  const [bt, at] = [before.approvalThresholds, after.approvalThresholds]
  if (
    bt?.amount != null &&
    (raised(bt.amount, at?.amount) || (bt.currency ?? bl.currency) !== (at?.currency ?? al.currency))
  )
    why.push('raises or removes the approval threshold')
  const rule = (p: AgentPolicy, id: string) => p.accountRestrictions?.accountRules?.find((r) => r.accountId === id)
  const ids = new Set(
    [before, after].flatMap((p) => (p.accountRestrictions?.accountRules ?? []).map((r) => r.accountId)),
  )
  if (before.defaultExecutionMode === 'APPROVAL_REQUIRED' && after.defaultExecutionMode === 'AUTO')
    why.push('switches defaultExecutionMode to AUTO')
  for (const id of ids) {
    const mode = (p: AgentPolicy) => rule(p, id)?.executionMode ?? p.defaultExecutionMode
    if (mode(before) === 'APPROVAL_REQUIRED' && mode(after) === 'AUTO') why.push(`switches ${id} to AUTO`)
    if (raised(rule(before, id)?.perTransactionLimit, rule(after, id)?.perTransactionLimit))
      why.push(`raises the per-transaction limit of ${id}`)
  }
  const [ba, aa] = [before.accountRestrictions?.allowedAccountIds, after.accountRestrictions?.allowedAccountIds]
  if (ba && (!aa || aa.some((id) => !ba.includes(id)))) why.push('widens accountRestrictions.allowedAccountIds')
  return why
}

/**
 * A platform call that creates, widens or hands out (device code) an agent: when the agent could
 * then move money it did not before, the caller must also hold the entry's `delegation.grant`
 * (TRANSACT), and becomes the agent's grant. Undefined: no new grant (the agent keeps its own).
 */
export function authorizeGrant(
  ctx: SandboxContext,
  operationId: 'createAgent' | 'updateAgentPolicy' | 'regenerateAgentDeviceCode',
  before: StoredAgent | undefined,
  after: AgentPolicy,
): AgentGrant | undefined {
  const need = delegationOf(operationId)?.grant
  if (!need || !canMoveMoney(after)) return undefined
  const why =
    operationId === 'regenerateAgentDeviceCode'
      ? [`hands ${before?.id}'s payments to whoever redeems the code`]
      : widenings(before?.policy, after)
  if (!why.length) return undefined
  const p = ctx.principal
  const grantedAt = ctx.iso()
  if (p.kind === 'system') return {tokenId: 'system', sandbox: true, grantedAt}
  const held = p.kind === 'platform' ? p.permissions : []
  if (p.kind !== 'platform' || !need.some((x) => held.includes(x)))
    throw forbidden(
      `This API token's permissions (${held.join(', ') || 'none'}) do not allow ${operationId} here: it ${why.join(', ')}, so the agent could move the customer's money, which needs ${need.join(' or ')}`,
      {operation: operationId, required: need, granted: held, because: why},
    )
  return {tokenId: p.tokenId, ...(p.own ? {sandbox: true as const} : {}), grantedAt}
}

/**
 * Before an agent's payment (entries with `delegation.spends`): the grant behind the agent is
 * still there. Deleting the token that granted it stops the agent's payments, whatever its token.
 */
export function requireLiveGrant(db: Db, a: StoredAgent, operation: string): void {
  const g = a._.grant
  if (g?.sandbox) return
  const token = g ? db.get<StoredToken>('apiTokens', g.tokenId) : undefined
  if (token?.permissions.includes('TRANSACT')) return
  throw forbidden(
    g
      ? `The API token that let ${a.id} move money (${g.tokenId}) was deleted, so ${a.id} may not; a token holding TRANSACT can grant it again by issuing a new device code`
      : `No token holding TRANSACT let ${a.id} move money; one can, by issuing a new device code for it`,
    {agentId: a.id, operation, grantedBy: g?.tokenId ?? null},
  )
}

export const requiresLiveGrant = (entry: AuthzEntry): boolean => Boolean(entry.delegation?.spends)

/**
 * An agent's quote (made or executed) in one currency is a same-currency transfer: it also needs
 * the entry's `delegation.sameCurrency` (CREATE_TRANSFERS), as "CREATE_QUOTES/EXECUTE_QUOTES: cross-currency".
 */
export function authorizeAgentQuote(
  a: StoredAgent,
  operationId: 'agentCreateQuote' | 'agentExecuteQuote',
  currencies: {sending: string; receiving: string},
): void {
  const need = delegationOf(operationId)?.sameCurrency
  if (!need || currencies.sending !== currencies.receiving || a.policy.permissions.includes(need)) return
  throw forbidden(
    `${a.id}'s policy does not grant ${need}: a ${currencies.sending} to ${currencies.receiving} quote is a same-currency transfer`,
    {agentId: a.id, permission: need, operation: operationId},
  )
}
