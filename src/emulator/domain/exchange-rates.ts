import type {ExchangeRatesQuery} from '../../lib/schemas/reference.js'
import type {SandboxContext} from '../context.js'
import {feesFor} from './fees.js'
import {currencyObject} from './internal-accounts.js'
import {convertDown, fromUsdCents, rateFor, rateTable} from './rates.js'

/** The rail a payout in each fiat currency uses (the contract requires one per corridor; crypto has none, so it is no destination here). */
export const PAYOUT_RAILS: Record<string, string> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  MXN: 'SPEI',
  BRL: 'PIX',
  GBP: 'FASTER_PAYMENTS',
  INR: 'UPI',
  CAD: 'BANK_TRANSFER',
  DKK: 'BANK_TRANSFER',
  JPY: 'BANK_TRANSFER',
}
const DEFAULT_SENDING = 10_000
const MIN_SENDING_USD_CENTS = 100
const DEFAULT_MAX_USD_CENTS = 100_000_000

/** a / b for decimal strings, to `digits` significant digits (rounded half up), as a decimal string. Exact: BigInt only. */
export function divideDecimal(a: string, b: string, digits = 8): string {
  const [an, ad] = fraction(a)
  const [bn, bd] = fraction(b)
  const num = an * bd
  const den = ad * bn
  // The smallest power of ten that gives the quotient `digits` digits (0 when it has them already).
  let scale = 0
  while ((num * 10n ** BigInt(scale)) / den < 10n ** BigInt(digits - 1)) scale++
  const scaled = (num * 10n ** BigInt(scale) * 2n + den) / (2n * den)
  const s = scaled.toString().padStart(scale + 1, '0')
  const out = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s
  return out.includes('.') ? out.replace(/0+$/, '').replace(/\.$/, '') : out
}

function fraction(v: string): [bigint, bigint] {
  const [w, f = ''] = v.split('.')
  return [BigInt(w + f), 10n ** BigInt(f.length)]
}

/**
 * GET /exchange-rates: every corridor from the source(s) to the fiat destinations, priced for
 * `sendingAmount` with the same rates and fees a quote would use. `exchangeRate` follows the
 * contract here (sending units per receiving unit); the spec says nothing of this endpoint.
 */
export function exchangeRates(ctx: SandboxContext, q: ExchangeRatesQuery): Array<Record<string, unknown>> {
  const table = rateTable(ctx)
  const updatedAt = new Date(ctx.db.get<{takenAt: number}>('rates', 'current')?.takenAt ?? ctx.now()).toISOString()
  const sending = q.sendingAmount === undefined ? DEFAULT_SENDING : Number(q.sendingAmount)
  const sources = q.sourceCurrency ? [q.sourceCurrency] : Object.keys(table)
  const destinations = (q.destinationCurrency?.length ? q.destinationCurrency : Object.keys(PAYOUT_RAILS)).filter(
    (c) => PAYOUT_RAILS[c] && table[c],
  )
  const s = ctx.settings()
  const out: Array<Record<string, unknown>> = []
  for (const from of sources.filter((c) => table[c])) {
    for (const to of destinations) {
      if (to === from) continue
      const rail = PAYOUT_RAILS[to]
      const fees = feesFor(ctx, {from, to, rail, net: sending})
      const total = fees.service + fees.platform
      const fixed = fromUsdCents(ctx, from, s.railFeesUsdCents[rail] ?? s.railFeesUsdCents.DEFAULT ?? 0)
      out.push({
        sourceCurrency: currencyObject(from),
        sendingAmount: sending,
        minSendingAmount: fromUsdCents(ctx, from, MIN_SENDING_USD_CENTS),
        maxSendingAmount:
          s.transactionSizeLimits[`${from}-${to}`] ??
          s.transactionSizeLimits[from] ??
          fromUsdCents(ctx, from, DEFAULT_MAX_USD_CENTS),
        destinationCurrency: currencyObject(to),
        destinationPaymentRail: rail,
        receivingAmount: convertDown(rateFor(ctx, from, to), Math.max(0, sending - total)),
        exchangeRate: Number(divideDecimal(table[from], table[to])),
        fees: {fixed, total},
        updatedAt,
      })
    }
  }
  return out
}
