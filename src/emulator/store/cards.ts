import type {CurrencyObject} from './quotes.js'
import type {CardListQuery, CardState, CardTransactionStatus} from '../../lib/schemas/cards.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import type {TransactionListQuery} from '../../lib/schemas/transactions.js'
import type {Cursor} from '../paging.js'
import {countOf, keysetPage, rangeCountOf} from './keyset.js'

/** Cards that are not CLOSED for one cardholder (index cards_cardholder_id_state): the live-card limit. */
export function liveCardCount(db: Db, cardholderId: string): number {
  return Number(
    db.sql.row("SELECT count(*) FROM cards WHERE cardholder_id = ? AND state != 'CLOSED'", cardholderId)![0],
  )
}

/** GET /cards: the published filters over indexed columns, newest first unless asked. */
export function listCards(db: Db, q: CardListQuery, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  if (q.cardholderId) (where.push('cardholder_id = ?'), params.push(q.cardholderId))
  if (q.platformCardId) (where.push('platform_card_id = ?'), params.push(q.platformCardId))
  if (q.state) (where.push('state = ?'), params.push(q.state))
  if (q.accountId)
    (where.push('id IN (SELECT card_id FROM cardFundingSources WHERE account_id = ?)'), params.push(q.accountId))
  return keysetPage<StoredCard>(
    db,
    {
      table: 'cards',
      where,
      params,
      order: q.sortOrder === 'asc' ? 'asc' : 'desc',
      total: where.length ? undefined : countOf(db, 'cards'),
    },
    paging,
  )
}

/** Replaces the (card, account) rows that answer GET /cards?accountId=. */
export function bindFundingSources(db: Db, cardId: string, accountIds: string[]): void {
  for (const row of db.sql.rows('SELECT id FROM cardFundingSources WHERE card_id = ?', cardId))
    db.del('cardFundingSources', String(row[0]))
  for (const accountId of accountIds) db.put('cardFundingSources', `${cardId}|${accountId}`, {cardId, accountId})
}

interface Branch {
  table: string
  where: string[]
  params: unknown[]
  /** A count known without counting (the `counts` table). */
  total?: number
}

/**
 * The card transactions an unfiltered-by-type GET /transactions includes: none when a filter only
 * payments have is given (status values differ, references are payment references, type is given,
 * a receiving account).
 */
export function cardBranch(db: Db, q: TransactionListQuery): Branch | undefined {
  // A card pays a merchant, never an account: no card transaction has a receiving account.
  if (q.type || q.status || q.reference || q.receiverAccountIdentifier) return undefined
  const where: string[] = []
  const params: unknown[] = []
  if (q.customerId) (where.push('customer_id = ?'), params.push(q.customerId))
  if (q.platformCustomerId) (where.push('platform_customer_id = ?'), params.push(q.platformCustomerId))
  if (q.accountIdentifier) (where.push('account_id = ?'), params.push(q.accountIdentifier))
  if (q.senderAccountIdentifier) (where.push('account_id = ?'), params.push(q.senderAccountIdentifier))
  if (q.startDate) (where.push('created_at >= ?'), params.push(new Date(q.startDate).toISOString()))
  if (q.endDate) (where.push('created_at <= ?'), params.push(new Date(q.endDate).toISOString()))
  const dates = [q.startDate, q.endDate].filter(Boolean).length
  const iso = (v: string | undefined) => v && new Date(v).toISOString()
  const total = !where.length
    ? countOf(db, 'cardTransactions')
    : where.length === dates
      ? rangeCountOf(db, {name: 'cardTransactions', table: 'cardTransactions'}, iso(q.startDate), iso(q.endDate))
      : undefined
  return {table: 'cardTransactions', where, params, total}
}

/**
 * One keyset page over several tables in `(created_at, id)` order: each branch reads at most
 * `limit + 1` rows after the cursor from its own index, then the few rows are merged.
 */
export function keysetMerge<T extends Cursor>(
  db: Db,
  branches: Branch[],
  order: 'asc' | 'desc',
  paging: Paging,
): {rows: T[]; totalCount: number} {
  const dir = order === 'asc' ? 'ASC' : 'DESC'
  const rows: T[] = []
  let totalCount = 0
  for (const b of branches) {
    const where = [...b.where]
    const params = [...b.params]
    if (paging.after)
      (where.push(`(created_at, id) ${dir === 'ASC' ? '>' : '<'} (?, ?)`),
        params.push(paging.after.createdAt, paging.after.id))
    const clause = (w: string[]) => (w.length ? ` WHERE ${w.join(' AND ')}` : '')
    rows.push(
      ...db.docs<T>(
        db.sql.rows(
          `SELECT doc FROM "${b.table}"${clause(where)} ORDER BY created_at ${dir}, id ${dir} LIMIT ?`,
          ...params,
          paging.limit + 1,
        ),
      ),
    )
    // The chain's first page counted the branches it had no counter for; the cursor carries that sum.
    if (b.total === undefined && paging.after?.total !== undefined) continue
    totalCount += b.total ?? Number(db.sql.row(`SELECT count(*) FROM "${b.table}"${clause(b.where)}`, ...b.params)![0])
  }
  if (paging.after?.total !== undefined && branches.some((b) => b.total === undefined)) totalCount = paging.after.total
  const cmp = (x: T, y: T) =>
    x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0
  rows.sort((x, y) => (dir === 'ASC' ? cmp(x, y) : cmp(y, x)))
  return {rows: rows.slice(0, paging.limit + 1), totalCount}
}

/** A card as stored: the published Card plus, under `_`, what only a reveal may show. */
export interface StoredCard {
  id: string
  cardholderId: string
  platformCardId: string
  state: CardState
  stateReason: 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM' | 'CLOSED_BY_GRID' | null
  brand: 'VISA'
  form: 'VIRTUAL'
  last4: string
  expMonth: number
  expYear: number
  fundingSources: string[]
  maxSpendPerTransaction: number | null
  currency: string
  createdAt: string
  updatedAt: string
  /** Internal: the full card number and CVV (sandbox values). Never returned outside the reveal page. */
  _: {pan: string; cvv: string}
}

/**
 * A card transaction (spec 3 "Card transaction"): one authorization and everything reconciled
 * against it. Money moves on the funding account through the ledger: an authorization holds,
 * a clearing settles from the hold (an over-clearing pulls the difference), an expiry releases,
 * a return credits back, a return reversal pulls again, a credit arrives from outside.
 */
export interface StoredCardTransaction {
  type: 'CARD'
  id: string
  cardId: string
  customerId: string
  platformCustomerId: string
  issuerTransactionToken: string
  status: CardTransactionStatus
  direction: 'DEBIT' | 'CREDIT'
  merchant: {descriptor: string; mcc?: string; country?: string}
  authorizedAmount: Amount
  settledAmount: Amount
  refundedAmount: Amount
  accountId: string
  pullSummary: {count: number; totalAmount: number; pendingCount: number}
  refundSummary: {count: number; totalAmount: number}
  settlementSummary: {count: number; totalAmount: number}
  authorizedAt: string
  lastEventAt: string
  createdAt: string
  updatedAt: string
  /** Internal: funds still held for this authorization, and each posted return (for reversals). */
  _: {held: number; returns: number[]}
}

/** A money amount with its currency object. */
type Amount = {amount: number; currency: CurrencyObject}
