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
  router.handle('listTransactions', (req, ctx) => {
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

  router.handle('getTransactionById', (req, ctx) =>
    req.params.transactionId.startsWith('CardTransaction:')
      ? getCardTransactionRoute(ctx, req.params.transactionId)
      : {status: 200, body: publicTransaction(getTransaction(ctx, req.params.transactionId))},
  )

  router.handle('approvePendingPayment', (req, ctx) => {
    const t = getTransaction(ctx, req.params.transactionId)
    validate(transactionApproveRequest, req.body ?? {})
    return {
      status: 200,
      body: publicTransaction(isAwaitingDecision(t) ? acceptIncoming(ctx, t) : approveTransaction(ctx, t)),
    }
  })

  router.handle('rejectPendingPayment', (req, ctx) => {
    const t = getTransaction(ctx, req.params.transactionId)
    validate(transactionRejectRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(rejectTransaction(ctx, t))}
  })

  router.handle('confirmReceiptDelivery', (req, ctx) => {
    const t = getTransaction(ctx, req.params.transactionId)
    const {receiptDeliveryConfirmedAt} = validate(transactionConfirmRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(confirmReceipt(ctx, t, receiptDeliveryConfirmedAt))}
  })

  router.handle('cancelTransaction', (req, ctx) => {
    const t = getTransaction(ctx, req.params.transactionId)
    validate(transactionCancelRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(cancelTransaction(ctx, t))}
  })
}
