import {transactionSchema, type TransactionListQuery} from '../schemas/transactions.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'

export async function listTransactions(client: ApiClient, query: Omit<TransactionListQuery, 'limit' | 'cursor'>, page: PageOptions) {
  return listPaged(client, ['transactions'], query, transactionSchema, page, 'transaction list')
}

export async function getTransaction(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['transactions', id]})
  return client.parse(transactionSchema, res.body, 'transaction')
}

export async function approveTransaction(client: ApiClient, id: string) {
  const res = await client.request({method: 'POST', path: ['transactions', id, 'approve'], body: {}})
  return client.parse(transactionSchema, res.body, 'transaction')
}

export async function cancelTransaction(client: ApiClient, id: string, reason?: string) {
  const res = await client.request({method: 'POST', path: ['transactions', id, 'cancel'], body: reason ? {reason} : {}})
  return client.parse(transactionSchema, res.body, 'transaction')
}

export async function rejectTransaction(client: ApiClient, id: string, reason?: string) {
  const res = await client.request({method: 'POST', path: ['transactions', id, 'reject'], body: reason ? {reason} : {}})
  return client.parse(transactionSchema, res.body, 'transaction')
}

/** POST /transactions/{id}/confirm: the receipt was delivered at `at` (default: now, server time). */
export async function confirmReceiptDelivery(client: ApiClient, id: string, at?: string) {
  const res = await client.request({method: 'POST', path: ['transactions', id, 'confirm'], body: at ? {receiptDeliveryConfirmedAt: at} : {}})
  return client.parse(transactionSchema, res.body, 'transaction')
}
