import type {TransactionListQuery} from '../../lib/schemas/transactions.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, keysetPage} from './keyset.js'
import {cardBranch, keysetMerge, type StoredCardTransaction} from './cards.js'

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

export interface StoredTransaction {
  id: string
  status: string
  type: 'OUTGOING' | 'INCOMING'
  direction: 'DEBIT' | 'CREDIT'
  customerId?: string
  platformCustomerId?: string
  source?: Record<string, unknown>
  destination: Record<string, unknown>
  sentAmount?: Amount
  receivedAmount?: Amount
  /** Smallest units of the sending currency (int64 in the contract). */
  fees?: number
  platformFees?: number
  exchangeRate?: number
  quoteId?: string
  description?: string
  paymentRail?: string | null
  pendingReason?: string
  failureReason?: string
  agentId?: string
  refund?: {reference: string; initiatedAt: string; settledAt?: string; status: string; reason: string}
  receiptDeliveryConfirmedAt?: string
  settledAt?: string
  createdAt: string
  updatedAt: string
  /** Internal: how the funds are held and what the sandbox pattern decided. Never returned. */
  _?: {funding?: Funding; outcome?: PayoutOutcome; destinationInternal?: string; destinationWallet?: string; sourceNetwork?: string; umaSender?: UmaSenderBehaviour}
}

type Amount = {amount: number; currency: Record<string, unknown>}

/** Where the money of an outgoing payment sits until it settles (drives the ledger moves). */
export type Funding = {kind: 'held'; accountId: string; amount: number; currency: string} | {kind: 'transit'; currency: string; amount: number}

/**
 * What happens to a payment after execute, from the destination's identifier (sandbox-behaviour 8-10:
 * the last 3 digits; for e-mail PIX keys, the end of the local part).
 */
export type PayoutOutcome =
  | {kind: 'complete'; delay: 'normal' | 'slow'}
  | {kind: 'fail'; reason: string; delay: 'normal' | 'timeout'; refund?: 'COMPLETED' | 'FAILED'; refundReason?: string}
  | {kind: 'return'}

/** How a sandbox UMA sender behaves (incoming payments). */
export type UmaSenderBehaviour = 'success' | 'pending' | 'fail' | 'refund' | 'refund_fail'
