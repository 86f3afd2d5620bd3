import * as z from 'zod'
import {agentActionListQuery} from '../../lib/schemas/agents.js'
import {externalAccountProblems} from '../../lib/schemas/accounts.js'
import {quoteCreateRequest} from '../../lib/schemas/quotes.js'
import {transferInRequest, transferOutRequest} from '../../lib/schemas/transfers.js'
import {transactionListQuery} from '../../lib/schemas/transactions.js'
import {callingAgent} from '../authz/principal-of.js'
import {getAction, publicAction} from '../domain/agent-actions.js'
import {agentExecute, agentQuote, agentTransfer, ownExternalAccount, ownQuote} from '../domain/agent-payments.js'
import {publicAgent} from '../domain/agents.js'
import {createExternalAccount, deleteExternalAccount, publicExternalAccount} from '../domain/external-accounts.js'
import {publicQuote} from '../domain/quotes.js'
import {getTransaction, publicTransaction} from '../domain/transactions.js'
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
  router.handle('getAgentMe', (req, ctx) => ({status: 200, body: publicAgent(callingAgent(ctx))}))

  router.handle('agentListInternalAccounts', (req, ctx) => {
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

  router.handle('agentListExternalAccounts', (req, ctx) => {
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
  router.handle('agentCreateExternalAccount', (req, ctx) => {
    const a = callingAgent(ctx)
    const body = (req.body ?? {}) as Record<string, unknown>
    if (body.customerId !== undefined && body.customerId !== a.customerId)
      throw invalid([{field: 'customerId', message: `must be the agent's customer ${a.customerId} (or omitted)`}])
    const {data, errors} = externalAccountProblems({...body, customerId: a.customerId})
    if (!data) throw invalid(errors)
    return {status: 201, body: publicExternalAccount(createExternalAccount(ctx, data))}
  })
  router.handle('agentGetExternalAccount', (req, ctx) => ({
    status: 200,
    body: publicExternalAccount(ownExternalAccount(ctx, callingAgent(ctx), req.params.externalAccountId)),
  }))
  router.handle('agentDeleteExternalAccount', (req, ctx) => {
    const a = callingAgent(ctx)
    deleteExternalAccount(ctx, ownExternalAccount(ctx, a, req.params.externalAccountId))
    return {status: 204}
  })

  router.handle('agentCreateQuote', (req, ctx) => {
    const q = agentQuote(ctx, callingAgent(ctx), validate(quoteCreateRequest, req.body ?? {}))
    return {status: 201, body: publicQuote(q)}
  })
  router.handle('agentGetQuote', (req, ctx) => ({
    status: 200,
    body: publicQuote(ownQuote(ctx, callingAgent(ctx), req.params.quoteId)),
  }))
  router.handle('agentExecuteQuote', (req, ctx) => {
    const a = callingAgent(ctx)
    return {status: 200, body: publicAction(ctx, agentExecute(ctx, a, req.params.quoteId, req), a)}
  })
  router.handle('agentCreateTransferOut', (req, ctx) => {
    const a = callingAgent(ctx)
    const input = validate(transferOutRequest, req.body ?? {})
    return {status: 201, body: publicAction(ctx, agentTransfer(ctx, a, {type: 'TRANSFER_OUT', input}, req), a)}
  })
  router.handle('agentCreateTransferIn', (req, ctx) => {
    const a = callingAgent(ctx)
    const input = validate(transferInRequest, req.body ?? {})
    return {status: 201, body: publicAction(ctx, agentTransfer(ctx, a, {type: 'TRANSFER_IN', input}, req), a)}
  })

  router.handle('agentListTransactions', (req, ctx) => {
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
  router.handle('agentGetTransaction', (req, ctx) => {
    const a = callingAgent(ctx)
    const t = getTransaction(ctx, req.params.transactionId)
    if (t.customerId !== a.customerId)
      throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${req.params.transactionId}`)
    return {status: 200, body: publicTransaction(t)}
  })

  router.handle('agentListActions', (req, ctx) => {
    const a = callingAgent(ctx)
    const q = validate(agentActionListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listAgentActions(ctx.db, {agentId: a.id, status: q.status}, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (x) => publicAction(ctx, x, a))}
  })
  router.handle('agentGetAction', (req, ctx) => {
    const a = callingAgent(ctx)
    return {status: 200, body: publicAction(ctx, getAction(ctx, a.id, req.params.actionId), a)}
  })
}
