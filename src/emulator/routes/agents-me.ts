import * as z from 'zod'
import {agentActionListQuery} from '../../lib/schemas/agents.js'
import {externalAccountProblems} from '../../lib/schemas/accounts.js'
import {quoteCreateRequest} from '../../lib/schemas/quotes.js'
import {transferInRequest, transferOutRequest} from '../../lib/schemas/transfers.js'
import {transactionListQuery} from '../../lib/schemas/transactions.js'
import {requireOwnAccounts, requireQuoteInScope} from '../authz/agent-scope.js'
import {callingAgent} from '../authz/principal-of.js'
import {getAction, publicAction, requireAccount, submitAction} from '../domain/agent-actions.js'
import {publicAgent} from '../domain/agents.js'
import {
  createExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  publicExternalAccount,
} from '../domain/external-accounts.js'
import {getInternalAccount} from '../domain/ledger.js'
import {executeQuote} from '../domain/quote-execute.js'
import {createQuote, getQuote, publicQuote} from '../domain/quotes.js'
import {getTransaction} from '../domain/transactions.js'
import {publicTransaction} from '../domain/transactions.js'
import {transferIn, transferOut} from '../domain/transfers.js'
import type {SandboxContext} from '../context.js'
import {invalid, notFound, validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {listAgentActions} from '../store/agents.js'
import {pageExternalAccounts, pageInternalAccounts} from '../store/accounts.js'
import {listTransactions} from '../store/transactions.js'
import {publicCardTransaction} from '../domain/card-transactions.js'

const accountQuery = z.strictObject({
  currency: z
    .string()
    .regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code'})
    .optional(),
  type: z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

/**
 * The agent's side (HTTP Bearer with its access token): the server has admitted the agent and
 * checked the permission each route needs (authz/table.ts); everything here is scoped to the
 * agent's customer and its policy; money movement answers an AgentAction.
 */
export function registerAgentMe(router: Router): void {
  router.get('/agents/me', (req, ctx) => ({status: 200, body: publicAgent(callingAgent(ctx))}))

  router.get('/agents/me/internal-accounts', (req, ctx) => {
    const a = callingAgent(ctx)
    const q = validate(accountQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageInternalAccounts(
      ctx.db,
      {customerId: a.customerId, currency: q.currency, type: q.type},
      paging,
    )
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (x) => x)}
  })

  router.get('/agents/me/external-accounts', (req, ctx) => {
    const a = callingAgent(ctx)
    const q = validate(
      accountQuery.omit({type: true}),
      Object.fromEntries(req.query),
      undefined,
      pagingErrors(req.query),
    )
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageExternalAccounts(
      ctx.db,
      {platform: false, customerId: a.customerId, currency: q.currency},
      paging,
    )
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicExternalAccount)}
  })
  router.post('/agents/me/external-accounts', (req, ctx) => {
    const a = callingAgent(ctx)
    const body = (req.body ?? {}) as Record<string, unknown>
    if (body.customerId !== undefined && body.customerId !== a.customerId)
      throw invalid([{field: 'customerId', message: `must be the agent's customer ${a.customerId} (or omitted)`}])
    const {data, errors} = externalAccountProblems({...body, customerId: a.customerId})
    if (!data) throw invalid(errors)
    return {status: 201, body: publicExternalAccount(createExternalAccount(ctx, data))}
  })
  const ownExternal = (ctx: SandboxContext, agentCustomer: string, id: string) => {
    const x = getExternalAccount(ctx, id)
    if (x.customerId !== agentCustomer) throw notFound('ACCOUNT_NOT_FOUND', `External account ${id}`)
    return x
  }
  router.get('/agents/me/external-accounts/:id', (req, ctx) => ({
    status: 200,
    body: publicExternalAccount(ownExternal(ctx, callingAgent(ctx).customerId, req.params.id)),
  }))
  router.delete('/agents/me/external-accounts/:id', (req, ctx) => {
    const a = callingAgent(ctx)
    deleteExternalAccount(ctx, ownExternal(ctx, a.customerId, req.params.id))
    return {status: 204}
  })

  router.post('/agents/me/quotes', (req, ctx) =>
    ctx.idempotent(req, 'agent-quotes', () => {
      const a = callingAgent(ctx)
      const input = validate(quoteCreateRequest, req.body ?? {})
      if (input.immediatelyExecute)
        throw invalid([
          {
            field: 'immediatelyExecute',
            message:
              'is not available to agents: execute with POST /agents/me/quotes/{quoteId}/execute, under the policy',
          },
        ])
      requireOwnAccounts(ctx, a, {
        source: 'accountId' in input.source ? input.source.accountId : undefined,
        destination: (input.destination as {accountId?: string}).accountId,
      })
      const q = createQuote(ctx, input, {beforeStore: (x) => requireQuoteInScope(ctx, a, x, 'agentCreateQuote')})
      return {status: 201, body: publicQuote(q)}
    }),
  )
  const ownQuote = (ctx: SandboxContext, customerId: string, id: string) => {
    const q = getQuote(ctx, id)
    if (q._.customerId !== customerId) throw notFound('QUOTE_NOT_FOUND', `Quote ${id}`)
    return q
  }
  router.get('/agents/me/quotes/:quoteId', (req, ctx) => ({
    status: 200,
    body: publicQuote(ownQuote(ctx, callingAgent(ctx).customerId, req.params.quoteId)),
  }))
  router.post('/agents/me/quotes/:quoteId/execute', (req, ctx) =>
    ctx.idempotent(req, `agent-execute|${req.params.quoteId}`, () => {
      const a = callingAgent(ctx)
      const q = ownQuote(ctx, a.customerId, req.params.quoteId)
      // Again at execute, under the policy as it is now (it may have changed since the quote).
      requireQuoteInScope(ctx, a, q, 'agentExecuteQuote')
      const x = submitAction(
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
      return {status: 200, body: publicAction(ctx, x, a)}
    }),
  )

  for (const [path, type, schema, run] of [
    ['transfer-out', 'TRANSFER_OUT', transferOutRequest, transferOut],
    ['transfer-in', 'TRANSFER_IN', transferInRequest, transferIn],
  ] as const) {
    router.post(`/agents/me/${path}`, (req, ctx) =>
      ctx.idempotent(req, `agent-${path}`, () => {
        const a = callingAgent(ctx)
        const input = validate(schema, req.body ?? {})
        // The customer's side of the transfer: the internal account paid from, or the one paid into.
        const internalId = type === 'TRANSFER_OUT' ? input.source.accountId : input.destination.accountId
        const externalId = type === 'TRANSFER_OUT' ? input.destination.accountId : input.source.accountId
        const internal = getInternalAccount(ctx, internalId)
        requireAccount(a, internal.id, internal.customerId)
        ownExternal(ctx, a.customerId, externalId)
        const x = submitAction(
          ctx,
          a,
          {
            type,
            amount: input.amount,
            currency: internal.balance.currency.code,
            accountId: internal.id,
            describe: () => ({
              transferDetails: {
                amount: input.amount,
                currency: internal.balance.currency.code,
                sourceAccountId: input.source.accountId,
                destinationAccountId: input.destination.accountId,
              },
            }),
          },
          (by) => run(ctx, input as never, req, by),
        )
        return {status: 201, body: publicAction(ctx, x, a)}
      }),
    )
  }

  router.get('/agents/me/transactions', (req, ctx) => {
    const a = callingAgent(ctx)
    const q = validate(
      transactionListQuery.omit({customerId: true, platformCustomerId: true}),
      Object.fromEntries(req.query),
      undefined,
      pagingErrors(req.query),
    )
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listTransactions(ctx.db, {...q, customerId: a.customerId}, paging)
    // The customer's card transactions are listed too (type CARD), as in GET /transactions.
    return {
      status: 200,
      body: pageFrom(rows, paging.limit, totalCount, (t) =>
        t.type === 'CARD' ? publicCardTransaction(t) : publicTransaction(t),
      ),
    }
  })
  router.get('/agents/me/transactions/:id', (req, ctx) => {
    const a = callingAgent(ctx)
    const t = getTransaction(ctx, req.params.id)
    if (t.customerId !== a.customerId) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${req.params.id}`)
    return {status: 200, body: publicTransaction(t)}
  })

  router.get('/agents/me/actions', (req, ctx) => {
    const a = callingAgent(ctx)
    const q = validate(agentActionListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgentActions(ctx.db, {agentId: a.id, status: q.status}, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (x) => publicAction(ctx, x, a))}
  })
  router.get('/agents/me/actions/:actionId', (req, ctx) => {
    const a = callingAgent(ctx)
    return {status: 200, body: publicAction(ctx, getAction(ctx, a.id, req.params.actionId), a)}
  })
}
