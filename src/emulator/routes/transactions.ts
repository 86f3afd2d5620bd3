import {
  transactionApproveRequest,
  transactionCancelRequest,
  transactionConfirmRequest,
  transactionListQuery,
  transactionRejectRequest,
} from '../../lib/schemas/transactions.js'
import {acceptIncoming, isAwaitingDecision, rejectTransaction} from '../domain/incoming-uma.js'
import {
  approveTransaction,
  cancelTransaction,
  confirmReceipt,
  getTransaction,
  publicTransaction,
} from '../domain/transactions.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {listTransactions} from '../store/transactions.js'
import {getCardTransactionRoute} from './cards.js'
import {publicCardTransaction} from '../domain/card-transactions.js'

/** GET /transactions with the published filters, one transaction, approve, reject, confirm and cancel (api-gaps 4.4). */
export function registerTransactions(router: Router): void {
  router.get('/transactions', (req, ctx) => {
    const q = validate(transactionListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listTransactions(ctx.db, q, paging)
    return {
      status: 200,
      body: pageFrom(rows, paging.limit, totalCount, (t) =>
        t.type === 'CARD' ? publicCardTransaction(t) : publicTransaction(t),
      ),
    }
  })

  router.get('/transactions/:id', (req, ctx) =>
    req.params.id.startsWith('CardTransaction:')
      ? getCardTransactionRoute(ctx, req.params.id)
      : {status: 200, body: publicTransaction(getTransaction(ctx, req.params.id))},
  )

  router.post('/transactions/:id/approve', (req, ctx) => {
    const t = getTransaction(ctx, req.params.id)
    validate(transactionApproveRequest, req.body ?? {})
    return {
      status: 200,
      body: publicTransaction(isAwaitingDecision(t) ? acceptIncoming(ctx, t) : approveTransaction(ctx, t)),
    }
  })

  router.post('/transactions/:id/reject', (req, ctx) => {
    const t = getTransaction(ctx, req.params.id)
    validate(transactionRejectRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(rejectTransaction(ctx, t))}
  })

  router.post('/transactions/:id/confirm', (req, ctx) => {
    const t = getTransaction(ctx, req.params.id)
    const {receiptDeliveryConfirmedAt} = validate(transactionConfirmRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(confirmReceipt(ctx, t, receiptDeliveryConfirmedAt))}
  })

  router.post('/transactions/:id/cancel', (req, ctx) => {
    const t = getTransaction(ctx, req.params.id)
    validate(transactionCancelRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(cancelTransaction(ctx, t))}
  })
}
