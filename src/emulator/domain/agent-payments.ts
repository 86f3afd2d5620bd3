import type {z} from 'zod'
import type {quoteCreateRequest} from '../../lib/schemas/quotes.js'
import type {transferInRequest, transferOutRequest} from '../../lib/schemas/transfers.js'
import {requireOwnAccounts, requireQuoteInScope} from '../authz/agent-scope.js'
import type {EmuRequest, SandboxContext} from '../context.js'
import {invalid, notFound} from '../http-error.js'
import {requireAccount, submitAction} from './agent-actions.js'
import type {StoredAgent, StoredAgentAction} from './agents.js'
import {getExternalAccount} from './external-accounts.js'
import {getInternalAccount} from './ledger.js'
import {executeQuote} from './quote-execute.js'
import {createQuote, getQuote, publicQuote} from './quotes.js'
import {getTransaction} from './transactions.js'
import {transferIn, transferOut} from './transfers.js'

/**
 * An agent's money movements, checked here rather than in the routes: its customer's accounts only
 * (agent-scope), the same-currency rule and the live grant (agent-grants, through the table), then
 * the policy (agent-actions: refused past a limit, waiting past the threshold), then the same quote
 * and transfer paths the platform uses, with their own checks (customer ready, SCA, terms, funds).
 */

/** The agent's customer's external account, or 404 as if there were none. */
export function ownExternalAccount(ctx: SandboxContext, a: StoredAgent, id: string) {
  const x = getExternalAccount(ctx, id)
  if (x.customerId !== a.customerId) throw notFound('ACCOUNT_NOT_FOUND', `External account ${id}`)
  return x
}

/** A quote of the agent's customer, or 404 as if there were none. */
export function ownQuote(ctx: SandboxContext, a: StoredAgent, id: string) {
  const q = getQuote(ctx, id)
  if (q._.customerId !== a.customerId) throw notFound('QUOTE_NOT_FOUND', `Quote ${id}`)
  return q
}

/** POST /agents/me/quotes: a quote between the customer's own accounts, executed later under the policy. */
export function agentQuote(ctx: SandboxContext, a: StoredAgent, input: z.infer<typeof quoteCreateRequest>) {
  if (input.immediatelyExecute)
    throw invalid([
      {
        field: 'immediatelyExecute',
        message: 'is not available to agents: execute with POST /agents/me/quotes/{quoteId}/execute, under the policy',
      },
    ])
  requireOwnAccounts(ctx, a, {
    source: 'accountId' in input.source ? input.source.accountId : undefined,
    destination: (input.destination as {accountId?: string}).accountId,
  })
  return createQuote(ctx, input, {beforeStore: (x) => requireQuoteInScope(ctx, a, x, 'agentCreateQuote')})
}

/** POST /agents/me/quotes/{id}/execute: checked again under the policy as it is now (it may have changed since the quote). */
export function agentExecute(ctx: SandboxContext, a: StoredAgent, quoteId: string, req: EmuRequest): StoredAgentAction {
  const q = ownQuote(ctx, a, quoteId)
  requireQuoteInScope(ctx, a, q, 'agentExecuteQuote')
  return submitAction(
    ctx,
    a,
    {
      type: 'EXECUTE_QUOTE',
      amount: q.totalSendingAmount,
      currency: q.sendingCurrency.code,
      accountId: q._.sourceAccountId ?? '',
      describe: () => ({quote: publicQuote(getQuote(ctx, q.id))}),
    },
    (by) => getTransaction(ctx, executeQuote(ctx, q.id, {req, ...by}).transactionId!),
  )
}

type TransferInput =
  | {type: 'TRANSFER_OUT'; input: z.infer<typeof transferOutRequest>}
  | {type: 'TRANSFER_IN'; input: z.infer<typeof transferInRequest>}

/** POST /agents/me/transfer-out|in: between the customer's internal account and its own external one. */
export function agentTransfer(ctx: SandboxContext, a: StoredAgent, t: TransferInput, req: EmuRequest) {
  const {input} = t
  // The customer's side of the transfer: the internal account paid from, or the one paid into.
  const [internalId, externalId] =
    t.type === 'TRANSFER_OUT'
      ? [t.input.source.accountId, t.input.destination.accountId]
      : [t.input.destination.accountId, t.input.source.accountId]
  const internal = getInternalAccount(ctx, internalId)
  requireAccount(a, internal.id, internal.customerId)
  ownExternalAccount(ctx, a, externalId)
  const currency = internal.balance.currency.code
  return submitAction(
    ctx,
    a,
    {
      type: t.type,
      amount: input.amount,
      currency,
      accountId: internal.id,
      describe: () => ({
        transferDetails: {
          amount: input.amount,
          currency,
          sourceAccountId: input.source.accountId,
          destinationAccountId: input.destination.accountId,
        },
      }),
    },
    (by) => (t.type === 'TRANSFER_OUT' ? transferOut(ctx, t.input, req, by) : transferIn(ctx, t.input, req, by)),
  )
}
