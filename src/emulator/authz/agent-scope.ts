import type {StoredAgent} from '../domain/agents.js'
import {getExternalAccount} from '../domain/external-accounts.js'
import {getInternalAccount} from '../domain/ledger.js'
import type {StoredQuote} from '../domain/quotes.js'
import type {SandboxContext} from '../context.js'
import {HttpError} from '../http-error.js'

const forbidden = (reason: string, details: Record<string, unknown>) => new HttpError(403, 'FORBIDDEN', reason, details)

/**
 * An agent's quote moves only its customer's money between its customer's accounts ("Accounts
 * referenced in the request must belong to the agent's customer"), and only on the internal
 * accounts its policy allows. Ownership is the account's own: a platform-owned account is never
 * the agent's customer's, whatever `source.customerId` the request named. Checked when the quote
 * is made and again when it is executed, against the policy of that moment (it may have changed,
 * and a quote the platform made for the customer may be executed by the agent).
 * Refusals are 403 FORBIDDEN, the contract's answer for "agent policy does not permit this operation".
 */
export function requireQuoteInScope(emu: SandboxContext, a: StoredAgent, q: StoredQuote): void {
  const refuse = (accountId: string, role: string) => forbidden(`${accountId} (the quote's ${role}) does not belong to ${a.customerId}, the customer ${a.id} acts for`, {agentId: a.id, accountId})
  if (q._.customerId !== a.customerId) throw refuse(q._.sourceAccountId ?? '(real-time funding)', 'source')
  const internal: string[] = []
  const src = q._.sourceAccountId
  if (q._.sourceKind === 'INTERNAL' && src) {
    if (getInternalAccount(emu, src).customerId !== a.customerId) throw refuse(src, 'source')
    internal.push(src)
  } else if (q._.sourceKind === 'PULL' && src) {
    if (getExternalAccount(emu, src).customerId !== a.customerId) throw refuse(src, 'source')
  }
  const dest = q._.destinationAccountId
  // A destination that is no account (an UMA address) is a payment to someone else, as a payout is.
  if (dest?.startsWith('InternalAccount:')) {
    if (getInternalAccount(emu, dest).customerId !== a.customerId) throw refuse(dest, 'destination')
    internal.push(dest)
  } else if (dest) {
    if (getExternalAccount(emu, dest).customerId !== a.customerId) throw refuse(dest, 'destination')
  }
  const allowed = a.policy.accountRestrictions?.allowedAccountIds
  if (!allowed) return
  // "Restricts the agent to operate only on the specified internal account IDs": every internal account the quote touches, and a source that is no internal account (real-time or pull funding) is outside the list.
  const touched = q._.sourceKind === 'INTERNAL' ? internal : [src ?? '(real-time funding)', ...internal]
  const outside = touched.find((id) => !allowed.includes(id))
  if (outside) throw forbidden(`${outside} is not among the accounts ${a.id} may use`, {agentId: a.id, accountId: outside})
}
