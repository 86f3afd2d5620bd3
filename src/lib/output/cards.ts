import type {Card, CardTransaction} from '../schemas/cards.js'
import {formatAmount, formatCurrencyAmount, plainAmount, currencyOf, relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'
import {renderList, type Column, type ListView} from './table.js'

type Page<T> = {data: T[]; hasMore: boolean; totalCount?: number; nextCursor?: string}

export function renderCard(out: Output, c: Card): void {
  renderKeyValue(out, [
    ['id', c.id],
    ['state', c.stateReason ? `${c.state} (${c.stateReason})` : c.state],
    ['cardholder', c.cardholderId],
    ['platformCardId', c.platformCardId],
    ['card', `${c.brand ?? ''} ${c.form} •••• ${c.last4 ?? '????'}`.trim()],
    ['expires', c.expMonth && c.expYear ? `${String(c.expMonth).padStart(2, '0')}/${c.expYear}` : undefined],
    ['currency', c.currency],
    ['funding', c.fundingSources.join(', ')],
    [
      'max per transaction',
      c.maxSpendPerTransaction === null ? 'no limit' : formatAmount(c.maxSpendPerTransaction, c.currency),
    ],
    ['created', c.createdAt],
  ])
}

export const cardColumns: Array<Column<Card>> = [
  {key: 'id', header: 'ID', get: (c) => c.id, noTruncate: true},
  {key: 'state', header: 'STATE', get: (c) => (c.stateReason ? `${c.state} (${c.stateReason})` : c.state), priority: 1},
  {key: 'last4', header: 'LAST4', get: (c) => c.last4, priority: 2},
  {key: 'cardholder', header: 'CARDHOLDER', get: (c) => c.cardholderId, priority: 4, noTruncate: true},
  {key: 'platform-card-id', header: 'PLATFORM ID', get: (c) => c.platformCardId, priority: 5},
  {key: 'created', header: 'CREATED', get: (c) => relativeTime(c.createdAt), raw: (c) => c.createdAt, priority: 3},
]

export async function renderCardList(
  out: Output,
  list: Page<Card>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, cardColumns, list, view)
}

export function renderCardTransaction(out: Output, t: CardTransaction): void {
  const summary = (s: unknown) => {
    const v = s as {count?: number; totalAmount?: number} | undefined
    return v ? `${v.count} (${formatAmount(v.totalAmount, t.authorizedAmount.currency)})` : undefined
  }
  renderKeyValue(out, [
    ['id', t.id],
    ['status', t.status],
    ['direction', t.direction],
    ['card', t.cardId],
    [
      'merchant',
      [t.merchant.descriptor, (t.merchant as {mcc?: string}).mcc, (t.merchant as {country?: string}).country]
        .filter(Boolean)
        .join(' · '),
    ],
    ['authorized', formatCurrencyAmount(t.authorizedAmount)],
    ['settled', t.settledAmount ? formatCurrencyAmount(t.settledAmount) : undefined],
    ['refunded', t.refundedAmount && t.refundedAmount.amount ? formatCurrencyAmount(t.refundedAmount) : undefined],
    ['account', t.accountId],
    ['pulls', summary(t.pullSummary)],
    ['settlements', summary(t.settlementSummary)],
    ['refunds', summary(t.refundSummary)],
    ['issuer token', t.issuerTransactionToken],
    ['created', t.createdAt],
  ])
}

export const cardTransactionColumns: Array<Column<CardTransaction>> = [
  {key: 'id', header: 'ID', get: (t) => t.id, noTruncate: true},
  {key: 'status', header: 'STATUS', get: (t) => t.status, priority: 1},
  {key: 'direction', header: 'DIR', get: (t) => t.direction, priority: 4},
  {key: 'merchant', header: 'MERCHANT', get: (t) => t.merchant.descriptor, priority: 3},
  {
    key: 'authorized',
    header: 'AUTHORIZED',
    get: (t) => formatCurrencyAmount(t.authorizedAmount),
    raw: (t) => plainAmount(t.authorizedAmount),
    currency: (t) => currencyOf(t.authorizedAmount),
    priority: 2,
    noTruncate: true,
  },
  {
    key: 'settled',
    header: 'SETTLED',
    get: (t) => formatCurrencyAmount(t.settledAmount),
    raw: (t) => plainAmount(t.settledAmount),
    currency: (t) => currencyOf(t.settledAmount),
    priority: 2,
    noTruncate: true,
  },
  {
    key: 'refunded',
    header: 'REFUNDED',
    get: (t) => formatCurrencyAmount(t.refundedAmount),
    raw: (t) => plainAmount(t.refundedAmount),
    currency: (t) => currencyOf(t.refundedAmount),
    priority: 5,
    noTruncate: true,
  },
  {key: 'created', header: 'CREATED', get: (t) => relativeTime(t.createdAt), raw: (t) => t.createdAt, priority: 6},
  {key: 'card', header: 'CARD', get: (t) => t.cardId, priority: 7, noTruncate: true},
]

export async function renderCardTransactionList(
  out: Output,
  list: Page<CardTransaction>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, cardTransactionColumns, list, view)
}
