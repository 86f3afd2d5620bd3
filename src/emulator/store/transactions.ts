import type {TransactionListQuery} from '../../lib/schemas/transactions.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, groupCountOf, keysetPage, rangeCountOf, type ListQuery} from './keyset.js'
import {cardBranch, keysetMerge, type StoredCardTransaction} from './cards.js'

const iso = (v: string) => new Date(v).toISOString()

/**
 * GET /transactions: the published filters, newest first unless asked. Each filter leads an index
 * (the sender and receiver filters: the source and destination account indexes)
 * that continues in the keyset order (tables.ts). An account is either side of a payment: two
 * index ranges (source, then destination where the source is another), merged page by page.
 * totalCount: running counters when unfiltered, filtered by status, type or account alone, or by a
 * date window alone (created_at buckets); otherwise counted by the chain's first page and carried in
 * the cursor.
 */
export function listTransactions(db: Db, q: TransactionListQuery, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  if (q.customerId) add('customer_id = ?', q.customerId)
  if (q.platformCustomerId) add('platform_customer_id = ?', q.platformCustomerId)
  if (q.status) add('status = ?', q.status)
  if (q.type) add('type = ?', q.type)
  if (q.reference) add('(reference = ? OR id = ?)', q.reference, q.reference)
  if (q.senderAccountIdentifier) add('source_account_id = ?', q.senderAccountIdentifier)
  if (q.receiverAccountIdentifier) add('destination_account_id = ?', q.receiverAccountIdentifier)
  if (q.startDate) add('created_at >= ?', iso(q.startDate))
  if (q.endDate) add('created_at <= ?', iso(q.endDate))
  const order = q.sortOrder === 'asc' ? 'asc' : 'desc'
  const alone = where.length === 1 && !q.accountIdentifier
  let total: number | undefined
  if (!where.length && !q.accountIdentifier) total = countOf(db, 'transactions')
  else if (alone && q.status) total = groupCountOf(db, 'transactions.status', q.status)
  else if (alone && q.type) total = groupCountOf(db, 'transactions.type', q.type)
  else if (alone && q.senderAccountIdentifier)
    total = groupCountOf(db, 'transactions.source', q.senderAccountIdentifier)
  else if (!q.accountIdentifier && where.length === Number(Boolean(q.startDate)) + Number(Boolean(q.endDate)))
    total = rangeCountOf(
      db,
      {name: 'transactions', table: 'transactions'},
      q.startDate && iso(q.startDate),
      q.endDate && iso(q.endDate),
    )
  // An account alone: each side's running counter (filters beside it: counted by the first page).
  const sideTotal = (side: 'source' | 'destination') =>
    where.length ? undefined : groupCountOf(db, `transactions.${side}`, q.accountIdentifier!)
  const payments: ListQuery[] = q.accountIdentifier
    ? [
        {
          table: 'transactions',
          where: [...where, 'source_account_id = ?'],
          params: [...params, q.accountIdentifier],
          total: sideTotal('source'),
        },
        {
          table: 'transactions',
          where: [...where, 'destination_account_id = ?', 'source_account_id IS NOT ?'],
          params: [...params, q.accountIdentifier, q.accountIdentifier],
          total: sideTotal('destination'),
        },
      ]
    : [{table: 'transactions', where, params, total}]
  // Card transactions appear in the list too (type CARD), unless a filter only payments have excludes them.
  const cards = cardBranch(db, q)
  const branches = cards ? [...payments, cards] : payments
  if (branches.length > 1) return keysetMerge<StoredTransaction | StoredCardTransaction>(db, branches, order, paging)
  return keysetPage<StoredTransaction>(db, {...payments[0]!, order}, paging)
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
  _?: {
    funding?: Funding
    outcome?: PayoutOutcome
    destinationInternal?: string
    destinationWallet?: string
    sourceNetwork?: string
    umaSender?: UmaSenderBehaviour
    /** A payment to the UMA address of a customer of this platform: credited to it on completion. */
    umaReceiver?: {customerId: string; platformCustomerId: string; accountId: string; senderUma: string}
  }
}

type Amount = {amount: number; currency: Record<string, unknown>}

/** Where the money of an outgoing payment sits until it settles (drives the ledger moves). */
export type Funding =
  | {kind: 'held'; accountId: string; amount: number; currency: string}
  | {kind: 'transit'; currency: string; amount: number}

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
