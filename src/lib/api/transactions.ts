import {transactionSchema, type TransactionListQuery} from '../schemas/transactions.js'
import {apiRequest} from './request.js'
import {listRequest} from './paging.js'

export function listTransactions(query: Omit<TransactionListQuery, 'limit' | 'cursor'>) {
  return listRequest(['transactions'], query, transactionSchema, 'transaction list')
}

export function getTransaction(id: string) {
  return apiRequest({method: 'GET', path: ['transactions', id]}, transactionSchema, 'transaction')
}

export function approveTransaction(id: string) {
  return apiRequest({method: 'POST', path: ['transactions', id, 'approve'], body: {}}, transactionSchema, 'transaction')
}

/** POST /transactions/{id}/cancel; `reason` is kept with the transaction. */
export function cancelTransaction(id: string, body: {reason?: string}) {
  return apiRequest({method: 'POST', path: ['transactions', id, 'cancel'], body}, transactionSchema, 'transaction')
}

export function rejectTransaction(id: string, body: {reason?: string}) {
  return apiRequest({method: 'POST', path: ['transactions', id, 'reject'], body}, transactionSchema, 'transaction')
}

/** POST /transactions/{id}/confirm: the receipt was delivered at `receiptDeliveryConfirmedAt` (default: now, server time). */
export function confirmReceiptDelivery(id: string, body: {receiptDeliveryConfirmedAt?: string}) {
  return apiRequest({method: 'POST', path: ['transactions', id, 'confirm'], body}, transactionSchema, 'transaction')
}
