import {transactionSchema, type TransactionListQuery} from '../schemas/transactions.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

export async function listTransactions(
  client: ApiClient,
  query: Omit<TransactionListQuery, 'limit' | 'cursor'>,
  page: PageOptions,
) {
  return listPaged(client, ['transactions'], query, transactionSchema, page, 'transaction list')
}

export async function getTransaction(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['transactions', id]})
  return client.parse(transactionSchema, res.body, 'transaction')
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
