import {currency as lookup} from '../currencies.js'
import type {Quote} from '../schemas/quotes.js'
import {renderInstructions} from './accounts.js'
import {formatAmount} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'

const decimalsOf = (c: {code?: string; decimals?: number}) =>
  c.decimals ?? (c.code ? lookup(c.code)?.decimals : undefined) ?? 2

/** A display-only number with `sig` significant digits (money itself is never a float here). */
function sig(n: number, digits = 6): string {
  if (!Number.isFinite(n) || n === 0) return String(n)
  const rounded = Number(n.toPrecision(digits)) // 0.9999999999 -> 1, so the magnitude is right
  const places = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(rounded))))
  return rounded.toFixed(Math.min(places, 12))
}

/** `exchangeRate` is receiving smallest units per sending smallest unit (spec 2.8); shown in real units both ways. */
export function rateLines(q: Pick<Quote, 'exchangeRate' | 'sendingCurrency' | 'receivingCurrency'>): [string, string] {
  const real = q.exchangeRate * 10 ** (decimalsOf(q.sendingCurrency) - decimalsOf(q.receivingCurrency))
  const s = q.sendingCurrency.code ?? 'sending unit'
  const r = q.receivingCurrency.code ?? 'receiving unit'
  return [`1 ${s} = ${sig(real)} ${r}`, `1 ${r} = ${sig(1 / real)} ${s}`]
}

export function secondsLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000))
}

/** The summary an operator confirms: both totals, every fee, the rate both ways and the time left. */
export function renderQuote(out: Output, q: Quote, now: number): void {
  const send = q.sendingCurrency
  const fees = q.feesIncluded
  const platform = q.platformFeesIncluded ?? 0
  const [forward, backward] = rateLines(q)
  const left = secondsLeft(q.expiresAt, now)
  const dest = q.destination as {accountId?: string; umaAddress?: string; paymentRail?: string}
  const src = q.source as {accountId?: string; currency?: string; cryptoNetwork?: string}
  renderKeyValue(out, [
    ['quote', `${q.id}  ${q.status}`],
    [
      'from',
      src.accountId ?? `real-time funding (${src.currency}${src.cryptoNetwork ? ` on ${src.cryptoNetwork}` : ''})`,
    ],
    ['to', `${dest.accountId ?? dest.umaAddress ?? '-'}${dest.paymentRail ? ` via ${dest.paymentRail}` : ''}`],
    ['you send', formatAmount(q.totalSendingAmount, send)],
    [
      'fees',
      `${formatAmount(fees, send)} included (service ${formatAmount(fees - platform, send)}, platform ${formatAmount(platform, send)})`,
    ],
    ['converted', formatAmount(q.totalSendingAmount - fees, send)],
    ['rate', `${forward}   (${backward})`],
    ['they receive', formatAmount(q.totalReceivingAmount, q.receivingCurrency)],
    [
      'expires',
      q.status === 'PENDING' ? (left > 0 ? `in ${left}s (${q.expiresAt})` : `expired (${q.expiresAt})`) : undefined,
    ],
    ['transaction', q.transactionId],
    ['description', q.description],
  ])
  renderInstructions(
    out,
    q.paymentInstructions,
    `Pay ${formatAmount(q.totalSendingAmount, send)} to (real-time funding)`,
  )
}

/** One line for prompts: "Send USD 250.00 → MXN 4,291.13 to ExternalAccount:…?" */
export function quoteQuestion(q: Quote): string {
  const d = q.destination as {accountId?: string; umaAddress?: string}
  const dest = d.accountId ?? d.umaAddress ?? 'the destination'
  return `Send ${formatAmount(q.totalSendingAmount, q.sendingCurrency)} → ${formatAmount(q.totalReceivingAmount, q.receivingCurrency)} to ${dest}?`
}
