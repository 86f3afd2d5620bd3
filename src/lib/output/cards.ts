import type {Card, CardTransaction} from '../schemas/cards.js'
import {formatAmount, formatCurrencyAmount, relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue, renderTable} from './render.js'

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
    ['max per transaction', c.maxSpendPerTransaction === null ? 'no limit' : formatAmount(c.maxSpendPerTransaction, c.currency)],
    ['created', c.createdAt],
  ])
}

export async function renderCardList(out: Output, list: Page<Card>): Promise<void> {
  await renderTable(
    out,
    ['ID', 'STATE', 'LAST4', 'CARDHOLDER', 'CREATED'],
    list.data.map((c) => [c.id, c.stateReason ? `${c.state} (${c.stateReason})` : c.state, c.last4, c.cardholderId, relativeTime(c.createdAt)]),
  )
  if (list.hasMore) out.info(out.dim(`More results: --cursor ${list.nextCursor} (or --all). ${list.totalCount ?? ''} in total.`))
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
    ['merchant', [t.merchant.descriptor, (t.merchant as {mcc?: string}).mcc, (t.merchant as {country?: string}).country].filter(Boolean).join(' · ')],
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

export async function renderCardTransactionList(out: Output, list: Page<CardTransaction>): Promise<void> {
  await renderTable(
    out,
    ['ID', 'STATUS', 'DIR', 'MERCHANT', 'AUTHORIZED', 'SETTLED', 'REFUNDED', 'CREATED'],
    list.data.map((t) => [t.id, t.status, t.direction, t.merchant.descriptor, formatCurrencyAmount(t.authorizedAmount), formatCurrencyAmount(t.settledAmount), formatCurrencyAmount(t.refundedAmount), relativeTime(t.createdAt)]),
  )
  if (list.hasMore) out.info(out.dim(`More results: --cursor ${list.nextCursor} (or --all). ${list.totalCount ?? ''} in total.`))
}
