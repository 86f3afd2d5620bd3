import type {CardListQuery, CardTransactionListQuery} from '../../lib/schemas/cards.js'
import type {StoredCard} from '../domain/cards.js'
import type {StoredCardTransaction} from '../domain/card-transactions.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {keysetPage} from './keyset.js'

/** Cards that are not CLOSED for one cardholder (index cards_cardholder_id_state): the live-card limit. */
export function liveCardCount(db: Db, cardholderId: string): number {
  return Number(db.sql.row("SELECT count(*) FROM cards WHERE cardholder_id = ? AND state != 'CLOSED'", cardholderId)![0])
}

/** GET /cards: the published filters over indexed columns, newest first unless asked. */
export function listCards(db: Db, q: CardListQuery, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  if (q.cardholderId) where.push('cardholder_id = ?'), params.push(q.cardholderId)
  if (q.platformCardId) where.push('platform_card_id = ?'), params.push(q.platformCardId)
  if (q.state) where.push('state = ?'), params.push(q.state)
  if (q.accountId) where.push('id IN (SELECT card_id FROM cardFundingSources WHERE account_id = ?)'), params.push(q.accountId)
  return keysetPage<StoredCard>(db, {table: 'cards', where, params, order: q.sortOrder === 'asc' ? 'asc' : 'desc'}, paging)
}

/** Replaces the (card, account) rows that answer GET /cards?accountId=. */
export function bindFundingSources(db: Db, cardId: string, accountIds: string[]): void {
  for (const row of db.sql.rows('SELECT id FROM cardFundingSources WHERE card_id = ?', cardId)) db.del('cardFundingSources', String(row[0]))
  for (const accountId of accountIds) db.put('cardFundingSources', `${cardId}|${accountId}`, {cardId, accountId})
}

/** GET /transactions?type=CARD: by card, cardholder, funding account and status. */
export function listCardTransactions(db: Db, q: CardTransactionListQuery, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  if (q.cardId) where.push('card_id = ?'), params.push(q.cardId)
  if (q.customerId) where.push('customer_id = ?'), params.push(q.customerId)
  if (q.accountIdentifier) where.push('account_id = ?'), params.push(q.accountIdentifier)
  if (q.status) where.push('status = ?'), params.push(q.status)
  return keysetPage<StoredCardTransaction>(db, {table: 'cardTransactions', where, params, order: q.sortOrder === 'asc' ? 'asc' : 'desc'}, paging)
}
