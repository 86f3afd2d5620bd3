import type {TransactionListQuery} from '../../lib/schemas/transactions.js'
import type {StoredTransaction} from '../domain/transactions.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, keysetPage} from './keyset.js'
import type {StoredCardTransaction} from '../domain/card-transactions.js'
import {cardBranch, keysetMerge} from './cards.js'

const iso = (v: string) => new Date(v).toISOString()

/** GET /transactions: the published filters over indexed columns, newest first unless asked. */
export function listTransactions(db: Db, q: TransactionListQuery, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  if (q.customerId) add('customer_id = ?', q.customerId)
  if (q.platformCustomerId) add('platform_customer_id = ?', q.platformCustomerId)
  if (q.accountIdentifier) add('(source_account_id = ? OR destination_account_id = ?)', q.accountIdentifier, q.accountIdentifier)
  if (q.status) add('status = ?', q.status)
  if (q.type) add('type = ?', q.type)
  if (q.reference) add('(reference = ? OR id = ?)', q.reference, q.reference)
  if (q.startDate) add('created_at >= ?', iso(q.startDate))
  if (q.endDate) add('created_at <= ?', iso(q.endDate))
  const order = q.sortOrder === 'asc' ? 'asc' : 'desc'
  // Card transactions appear in the list too (type CARD), unless a filter only payments have excludes them.
  const cards = cardBranch(db, q)
  if (cards) return keysetMerge<StoredTransaction | StoredCardTransaction>(db, [{table: 'transactions', where, params, total: where.length ? undefined : countOf(db, 'transactions')}, cards], order, paging)
  const total = where.length ? undefined : countOf(db, 'transactions')
  return keysetPage<StoredTransaction>(db, {table: 'transactions', where, params, order, total}, paging)
}
