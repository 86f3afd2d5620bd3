import {currency as lookupCurrency} from '../currencies.js'
import {fromMinor} from '../money.js'
import {serverNow} from '../server-clock.js'

interface CurrencyLike {
  /** Optional in the contract's Currency; answers normally carry it. */
  code?: string
  decimals?: number
}

/** 125000 MXN -> "MXN 1,250.00" using the currency's decimals (from the API object when given). */
export function formatAmount(amount: number | undefined, cur: CurrencyLike | string | undefined): string {
  if (amount === undefined || amount === null) return '-'
  const c = typeof cur === 'string' ? {code: cur} : cur
  if (!c || (!c.code && c.decimals === undefined)) return `${amount} (smallest units)`
  const decimals = c.decimals ?? (c.code ? lookupCurrency(c.code)?.decimals : undefined) ?? 0
  return `${c.code ?? ''} ${fromMinor(amount, decimals, true)}`.trim()
}

export function formatCurrencyAmount(v: {amount: number; currency: CurrencyLike} | undefined): string {
  return v ? formatAmount(v.amount, v.currency) : '-'
}

/** For csv: "USD 1250.00", no grouping commas, so a spreadsheet splits it on the space. */
export function plainAmount(v: {amount: number; currency: CurrencyLike} | undefined): string {
  if (!v) return ''
  const decimals = v.currency.decimals ?? (v.currency.code ? lookupCurrency(v.currency.code)?.decimals : undefined) ?? 0
  return fromMinor(v.amount, decimals)
}

/** A money column's currency code, which csv puts in a column of its own beside the plain number. */
export const currencyOf = (v: {currency: CurrencyLike} | undefined): string => v?.currency.code ?? ''

/** "in 1m 30s", "3m ago": relative to now on the server's clock (server-clock.ts), for expiries and timestamps. */
export function relativeTime(iso: string | undefined, now = serverNow()): string {
  if (!iso) return '-'
  const t = Date.parse(iso)
  if (!Number.isFinite(t)) return iso
  const diff = Math.round((t - now) / 1000)
  const abs = Math.abs(diff)
  if (abs < 3) return 'just now'
  const text =
    abs < 60
      ? `${abs}s`
      : abs < 3600
        ? `${Math.floor(abs / 60)}m ${abs % 60}s`
        : abs < 86400
          ? `${Math.floor(abs / 3600)}h ${Math.floor((abs % 3600) / 60)}m`
          : `${Math.floor(abs / 86400)}d`
  return diff >= 0 ? `in ${text}` : `${text} ago`
}
