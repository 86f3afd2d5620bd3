import type {StoredAgent} from '../store/agents.js'
import {getExternalAccount} from '../domain/external-accounts.js'
import {getInternalAccount} from '../domain/ledger.js'
import type {StoredQuote} from '../store/quotes.js'
import type {SandboxContext} from '../context.js'
import {HttpError} from '../http-error.js'
import {authorizeAgentQuote} from './agent-grants.js'

const forbidden = (reason: string, details: Record<string, unknown>) => new HttpError(403, 'FORBIDDEN', reason, details)

/**
 * An agent's quote moves only its customer's money between its customer's accounts ("Accounts
 * referenced in the request must belong to the agent's customer"), and only on the internal
 * accounts its policy allows. Ownership is the account's own: a platform-owned account is never
 * the agent's customer's, whatever `source.customerId` the request named. Checked when the quote
 * is made and again when it is executed, against the policy of that moment (it may have changed,
 * and a quote the platform made for the customer may be executed by the agent).
 * A quote in one currency is a same-currency transfer (CREATE_TRANSFERS too, agent-grants.ts).
 * Refusals are 403 FORBIDDEN, the contract's answer for "agent policy does not permit this operation".
 */
export function requireQuoteInScope(
  ctx: SandboxContext,
  a: StoredAgent,
  q: StoredQuote,
  operationId: 'agentCreateQuote' | 'agentExecuteQuote',
): void {
  if (q._.customerId !== a.customerId) throw notTheCustomers(a, q._.sourceAccountId ?? '(real-time funding)', 'source')
  authorizeAgentQuote(a, operationId, {sending: q.sendingCurrency.code, receiving: q.receivingCurrency.code})
  const src = q._.sourceKind === 'REALTIME' ? undefined : q._.sourceAccountId
  requireOwnAccounts(ctx, a, {source: src, destination: q._.destinationAccountId})
  const allowed = a.policy.accountRestrictions?.allowedAccountIds
  if (!allowed) return
  // "Restricts the agent to operate only on the specified internal account IDs": every internal account the quote touches; a source that is no internal account (real-time or pull funding) is outside the list.
  const dest = q._.destinationAccountId
  const touched = [
    q._.sourceKind === 'INTERNAL' ? src! : (src ?? '(real-time funding)'),
    ...(dest?.startsWith('InternalAccount:') ? [dest] : []),
  ]
  const outside = touched.find((id) => !allowed.includes(id))
  if (outside)
    throw forbidden(`${outside} is not among the accounts ${a.id} may use`, {agentId: a.id, accountId: outside})
}

/**
 * The accounts a request names (source, destination) are the agent's customer's, by the account's
 * own owner; checked first, so the answer is this refusal whatever else is wrong with the request.
 * An absent id (real-time funding, an UMA address) names no account.
 */
export function requireOwnAccounts(
  ctx: SandboxContext,
  a: StoredAgent,
  named: {source?: string; destination?: string},
): void {
  for (const [role, id] of Object.entries(named)) {
    if (!id) continue
    const owner = id.startsWith('InternalAccount:')
      ? getInternalAccount(ctx, id).customerId
      : getExternalAccount(ctx, id).customerId
    if (owner !== a.customerId) throw notTheCustomers(a, id, role)
  }
}

const notTheCustomers = (a: StoredAgent, accountId: string, role: string) =>
  forbidden(`${accountId} (the ${role}) does not belong to ${a.customerId}, the customer ${a.id} acts for`, {
    agentId: a.id,
    accountId,
  })
