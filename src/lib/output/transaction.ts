import type {Transaction} from '../schemas/transactions.js'
import {formatCurrencyAmount, plainAmount, currencyOf, relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

type Page<T> = {data: T[]; hasMore: boolean; totalCount?: number; nextCursor?: string}

const FAILURE_TEXT: Record<string, string> = {
  PAYOUT_RETURNED: 'the receiving bank returned the payment; the source was credited back',
  ACCOUNT_CANNOT_RECEIVE: 'the destination cannot receive this payment',
  ACCOUNT_INVALID: 'the destination account is closed or invalid',
  LIMIT_EXCEEDED: 'a limit was exceeded',
  COMPLIANCE_REJECTED: 'compliance rejected the payment',
  QUOTE_EXPIRED: 'the quote expired before funds arrived',
  QUOTE_EXECUTION_FAILED: 'the quote could not be executed',
  FUNDING_AMOUNT_MISMATCH: 'the funds received did not match the quote',
  SCA_NOT_COMPLETED: 'the SCA challenge expired before it was completed',
}

function onChain(side: unknown): string | undefined {
  const oc = (side as {onChainTransaction?: {transactionHash?: string; network?: string}} | undefined)
    ?.onChainTransaction
  return oc ? `${oc.transactionHash} (${oc.network})` : undefined
}

function accountOf(side: unknown): string | undefined {
  const s = side as {accountId?: string; umaAddress?: string; sourceType?: string; currency?: string} | undefined
  return (
    s?.accountId ??
    s?.umaAddress ??
    (s?.sourceType ? `${s.sourceType}${s.currency ? ` ${s.currency}` : ''}` : undefined)
  )
}

export function statusText(t: Transaction): string {
  if (t.failureReason)
    return `${t.status}: ${t.failureReason} (${FAILURE_TEXT[t.failureReason] ?? 'see the transaction'})`
  if (t.pendingReason) return `${t.status}: waiting (${t.pendingReason})`
  return t.status
}

/** Fees are smallest units of the sending currency: shown in it when the transaction names it. */
function sendingUnits(t: Transaction, amount: number | undefined): string | undefined {
  if (amount === undefined) return undefined
  return t.sentAmount ? formatCurrencyAmount({amount, currency: t.sentAmount.currency}) : `${amount} (smallest units)`
}

export function renderTransaction(out: Output, t: Transaction): void {
  const refund = t.refund as {status?: string; reason?: string} | undefined
  renderKeyValue(out, [
    ['id', t.id],
    ['status', statusText(t)],
    ['type', `${t.type}${t.direction ? ` / ${t.direction}` : ''}`],
    ['customer', t.customerId],
    ['from', accountOf(t.source)],
    ['to', accountOf(t.destination)],
    ['sent', t.sentAmount ? formatCurrencyAmount(t.sentAmount) : undefined],
    ['received', t.receivedAmount ? formatCurrencyAmount(t.receivedAmount) : undefined],
    ['fees', sendingUnits(t, t.fees)],
    ['platformFees', sendingUnits(t, t.platformFees)],
    ['rail', (t as {paymentRail?: string | null}).paymentRail ?? undefined],
    ['quote', t.quoteId],
    ['onChain (source)', onChain(t.source)],
    ['onChain (destination)', onChain(t.destination)],
    ['refund', refund ? `${refund.status} (${refund.reason})` : undefined],
    ['settled', t.settledAt ? `${t.settledAt} (${relativeTime(t.settledAt)})` : undefined],
    ['created', t.createdAt],
    ['description', t.description],
  ])
}

type Money = NonNullable<Transaction['sentAmount']>

/**
 * A card transaction (type CARD) has no sentAmount or receivedAmount: its amount is what settled,
 * or what was authorized until then, sent for a purchase (DEBIT) and received for a CREDIT.
 */
function cardAmount(t: Transaction, direction: 'DEBIT' | 'CREDIT'): Money | undefined {
  if (t.type !== 'CARD' || t.direction !== direction) return undefined
  const {settledAmount, authorizedAmount} = t as {settledAmount?: Money; authorizedAmount?: Money}
  return settledAmount?.amount ? settledAmount : authorizedAmount
}
const sentOf = (t: Transaction) => t.sentAmount ?? cardAmount(t, 'DEBIT')
const receivedOf = (t: Transaction) => t.receivedAmount ?? cardAmount(t, 'CREDIT')

/**
 * At 80 columns the id (never cut: a cut id cannot be pasted) leaves about 30: what identifies a
 * row comes first, TYPE (IN/OUT when short), then STATUS, never cut inside its word (the reason in
 * brackets is dropped first), then RECEIVED (an incoming payment has no SENT).
 */
export const transactionColumns: Array<Column<Transaction>> = [
  {key: 'id', header: 'ID', get: (t) => t.id, noTruncate: true},
  {
    key: 'type',
    header: 'TYPE',
    get: (t) => t.type,
    short: (t) => SHORT_TYPE[t.type] ?? t.type,
    priority: 1,
    noTruncate: true,
  },
  {
    key: 'status',
    header: 'STATUS',
    get: (t) =>
      t.failureReason
        ? `${t.status} (${t.failureReason})`
        : t.pendingReason
          ? `${t.status} (${t.pendingReason})`
          : t.status,
    short: (t) => t.status,
    priority: 2,
    // PROCESSING, the longest status word: "COMPL…" says less than leaving a lower column out.
    minWidth: 10,
  },
  {
    key: 'sent',
    header: 'SENT',
    get: (t) => (sentOf(t) ? formatCurrencyAmount(sentOf(t)!) : '-'),
    raw: (t) => plainAmount(sentOf(t)),
    currency: (t) => currencyOf(sentOf(t)),
    priority: 4,
    noTruncate: true,
  },
  {
    key: 'received',
    header: 'RECEIVED',
    get: (t) => (receivedOf(t) ? formatCurrencyAmount(receivedOf(t)!) : '-'),
    raw: (t) => plainAmount(receivedOf(t)),
    currency: (t) => currencyOf(receivedOf(t)),
    priority: 3,
    noTruncate: true,
  },
  {key: 'created', header: 'CREATED', get: (t) => relativeTime(t.createdAt), raw: (t) => t.createdAt, priority: 5},
  {key: 'customer', header: 'CUSTOMER', get: (t) => t.customerId, priority: 6, noTruncate: true},
]

const SHORT_TYPE: Record<string, string> = {INCOMING: 'IN', OUTGOING: 'OUT'}

export async function renderTransactionList(
  out: Output,
  list: Page<Transaction>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, transactionColumns, list, view)
}
