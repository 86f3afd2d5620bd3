import type {SandboxContext} from '../context.js'
import {HttpError, conflict, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {getCustomer} from './customers.js'
import {currentUsage, getAgent, saveAgent, type StoredAgent, type StoredAgentAction} from './agents.js'
import {convertDown, rateFor} from './rates.js'
import {
  approveTransaction,
  failPayment,
  getTransaction,
  publicTransaction,
  type StoredTransaction,
} from './transactions.js'
import type {Initiator} from './transfers.js'
import {actionOfTransaction} from '../store/agents.js'

const forbidden = (reason: string, details?: Record<string, unknown>) =>
  new HttpError(403, 'FORBIDDEN', reason, details)

/** Refuses an account outside the policy's allowed list, or one that is not the agent's customer's. */
export function requireAccount(a: StoredAgent, accountId: string, owner: string | null | undefined): void {
  if (owner !== a.customerId) throw notFound('ACCOUNT_NOT_FOUND', `Account ${accountId}`)
  const allowed = a.policy.accountRestrictions?.allowedAccountIds
  if (allowed && !allowed.includes(accountId))
    throw forbidden(`${accountId} is not among the accounts ${a.id} may use`, {agentId: a.id, accountId})
}

/** `amount` minor units of `from` in `to`, at the sandbox's rate; no rate: the policy cannot be applied, so the action is refused. */
function inCurrency(ctx: SandboxContext, a: StoredAgent, amount: number, from: string, to: string): number {
  if (from === to) return amount
  try {
    return convertDown(rateFor(ctx, from, to), amount)
  } catch (e) {
    if (!(e instanceof HttpError) || e.code !== 'QUOTE_RATE_UNAVAILABLE') throw e
    throw forbidden(`No ${from} to ${to} rate in this sandbox, so ${a.id}'s policy (in ${to}) cannot be applied`, {
      agentId: a.id,
      from,
      to,
    })
  }
}

/**
 * What the policy says about moving `amount` (minor units of `currency`) from `accountId`:
 * - refusals: every limit it would pass ("spending limit exceeded": 403, nothing held);
 * - approvals: every reason it must wait for the platform (execution modes, the approval threshold).
 * Amounts in another currency are converted at the sandbox's rate into the limits' currency, and
 * separately into the threshold's; an account rule's limit is in that account's currency (the action's).
 */
export function evaluatePolicy(
  ctx: SandboxContext,
  a: StoredAgent,
  amount: number,
  currency: string,
  accountId: string,
): {refusals: string[]; approvals: string[]; inPolicyCurrency: number} {
  const p = a.policy
  const lim = p.spendingLimits
  const inPolicyCurrency = inCurrency(ctx, a, amount, currency, lim.currency)
  const usage = currentUsage(ctx, a)
  const refusals: string[] = []
  const approvals: string[] = []
  const rule = p.accountRestrictions?.accountRules?.find((r) => r.accountId === accountId)
  if (rule?.perTransactionLimit != null && amount > rule.perTransactionLimit)
    refusals.push(`above the per-transaction limit of ${rule.perTransactionLimit} for ${accountId}`)
  if (inPolicyCurrency > lim.perTransactionLimit)
    refusals.push(`above the per-transaction limit of ${lim.perTransactionLimit} ${lim.currency}`)
  if (lim.dailyLimit != null && usage.dailySpend + inPolicyCurrency > lim.dailyLimit)
    refusals.push(`above the daily limit of ${lim.dailyLimit} ${lim.currency}`)
  if (lim.monthlyLimit != null && usage.monthlySpend + inPolicyCurrency > lim.monthlyLimit)
    refusals.push(`above the monthly limit of ${lim.monthlyLimit} ${lim.currency}`)
  if (lim.dailyTransactionLimit != null && usage.dailyTransactionCount + 1 > lim.dailyTransactionLimit)
    refusals.push(`more than ${lim.dailyTransactionLimit} transactions today`)
  if (p.defaultExecutionMode === 'APPROVAL_REQUIRED' && rule?.executionMode !== 'AUTO')
    approvals.push('the policy requires approval for every action')
  if (rule?.executionMode === 'APPROVAL_REQUIRED')
    approvals.push(`the policy requires approval for actions on ${accountId}`)
  const t = p.approvalThresholds
  if (t?.amount != null) {
    // A threshold stored before its currency was required is read in the limits' currency.
    const tCurrency = t.currency ?? lim.currency
    if (inCurrency(ctx, a, amount, currency, tCurrency) >= t.amount)
      approvals.push(`at or above the approval threshold of ${t.amount} ${tCurrency}`)
  }
  return {refusals, approvals, inPolicyCurrency}
}

function countUsage(ctx: SandboxContext, agentId: string, amount: number): void {
  const a = getAgent(ctx, agentId)
  const u = currentUsage(ctx, a)
  saveAgent(ctx, {
    ...a,
    usage: {
      ...u,
      dailyTransactionCount: u.dailyTransactionCount + 1,
      dailySpend: u.dailySpend + amount,
      monthlySpend: u.monthlySpend + amount,
    },
  })
}

/**
 * The action as the API shows it. `viewer`: the agent reading its own action, which sees the
 * transaction inside only with VIEW_TRANSACTIONS ("can list and retrieve transactions"); the
 * platform always sees it.
 */
export function publicAction(ctx: SandboxContext, x: StoredAgentAction, viewer?: StoredAgent): Record<string, unknown> {
  const {_: internal, ...rest} = x
  const t =
    internal.transactionId &&
    x.status !== 'PENDING_APPROVAL' &&
    x.status !== 'REJECTED' &&
    (!viewer || viewer.policy.permissions.includes('VIEW_TRANSACTIONS'))
      ? ctx.db.get<StoredTransaction>('transactions', internal.transactionId)
      : undefined
  return {...rest, ...(t ? {transaction: publicTransaction(t)} : {})}
}

/**
 * Runs an agent's money movement under its policy: past a limit it is refused (403) before anything
 * is held; within the limits it starts at once (APPROVED), unless an execution mode or the approval
 * threshold asks for the platform, when it waits in PENDING (PENDING_APPROVAL, with a webhook).
 */
export function submitAction(
  ctx: SandboxContext,
  a: StoredAgent,
  what: {
    type: StoredAgentAction['type']
    amount: number
    currency: string
    accountId: string
    describe: (t: StoredTransaction) => Partial<StoredAgentAction>
  },
  run: (by: Initiator) => StoredTransaction,
): StoredAgentAction {
  const {
    refusals,
    approvals: reasons,
    inPolicyCurrency,
  } = evaluatePolicy(ctx, a, what.amount, what.currency, what.accountId)
  if (refusals.length)
    throw forbidden(`Agent policy does not permit this operation or spending limit exceeded: ${refusals.join('; ')}`, {
      agentId: a.id,
      reasons: refusals,
    })
  const auto = reasons.length === 0
  const t = run({agentId: a.id, agentAuto: auto})
  if (auto) countUsage(ctx, a.id, inPolicyCurrency)
  const customer = getCustomer(ctx, a.customerId)
  const now = ctx.iso()
  const action: StoredAgentAction = {
    id: newId('AgentAction'),
    agentId: a.id,
    customerId: a.customerId,
    platformCustomerId: customer.platformCustomerId,
    status: auto ? 'APPROVED' : 'PENDING_APPROVAL',
    type: what.type,
    ...what.describe(t),
    createdAt: now,
    updatedAt: now,
    _: {transactionId: t.id, reasons, amountPolicy: inPolicyCurrency},
  }
  ctx.db.put('agentActions', action.id, action)
  if (!auto) {
    ctx.log(`agents: ${action.id} of ${a.id} waits for approval: ${reasons.join('; ')}`)
    ctx.webhooks.emit('AGENT_ACTION.PENDING_APPROVAL', publicAction(ctx, action))
  }
  return action
}

export function getAction(ctx: SandboxContext, agentId: string, actionId: string): StoredAgentAction {
  const x = ctx.db.get<StoredAgentAction>('agentActions', actionId)
  if (!x || x.agentId !== agentId) throw notFound('NOT_FOUND', `Agent action ${actionId} of ${agentId}`)
  return x
}

function notPending(x: StoredAgentAction): HttpError {
  return conflict(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `${x.id} is ${x.status}; only actions waiting for platform approval can be approved or rejected`,
    {status: x.status},
  )
}

/** POST /agents/{id}/actions/{actionId}/approve: the waiting payment starts (through the transaction's approval). */
export function approveAction(ctx: SandboxContext, x: StoredAgentAction): StoredAgentAction {
  if (x.status !== 'PENDING_APPROVAL' || !x._.transactionId) throw notPending(x)
  approveTransaction(ctx, getTransaction(ctx, x._.transactionId))
  return ctx.db.get<StoredAgentAction>('agentActions', x.id)!
}

/** POST /agents/{id}/actions/{actionId}/reject: the waiting payment fails and its funds come back. */
export function rejectAction(ctx: SandboxContext, x: StoredAgentAction, reason?: string): StoredAgentAction {
  if (x.status !== 'PENDING_APPROVAL') throw notPending(x)
  const t = x._.transactionId ? getTransaction(ctx, x._.transactionId) : undefined
  if (t?.status === 'PENDING') failPayment(ctx, t, undefined)
  return ctx.db.put('agentActions', x.id, {
    ...x,
    status: 'REJECTED' as const,
    rejectionReason: reason ?? 'Rejected by the platform',
    updatedAt: ctx.iso(),
  })
}

/** A platform approval of the transaction (either endpoint) approves the action behind it. */
/**
 * A waiting action follows its transaction: approved by the platform (either endpoint) it is
 * APPROVED; failed before that (cancelled, or rejected) it is FAILED (a reject then says REJECTED).
 */
export function followTransaction(ctx: SandboxContext, t: StoredTransaction): void {
  if (t.status === 'PENDING') return
  const x = actionOfTransaction(ctx.db, t.id)
  if (!x || x.status !== 'PENDING_APPROVAL') return
  const approved = t.status !== 'FAILED'
  ctx.db.put('agentActions', x.id, {
    ...x,
    status: approved ? ('APPROVED' as const) : ('FAILED' as const),
    updatedAt: ctx.iso(),
  })
  if (approved) countUsage(ctx, x.agentId, x._.amountPolicy)
}
