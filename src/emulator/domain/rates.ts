import {createHash} from 'node:crypto'
import {currency as lookup} from '../../lib/currencies.js'
import type {SandboxContext} from '../context.js'
import {HttpError, invalid} from '../http-error.js'

/** Deterministic defaults: units of each currency per 1 USD (decimal strings, never floats). */
export const DEFAULT_RATES: Record<string, string> = {
  USD: '1',
  USDC: '1',
  USDT: '1',
  USDB: '1',
  EUR: '0.92',
  MXN: '17.25',
  BRL: '5.45',
  GBP: '0.79',
  CAD: '1.37',
  INR: '83.5',
  DKK: '6.87',
  JPY: '151',
  BTC: '0.0000154',
}

interface Snapshot {
  takenAt: number
  hash: string
  table: Record<string, string>
}

/**
 * The rate table in use: the defaults merged with PATCH /config {sandbox: {exchangeRates}}, cached
 * for `rateCacheMs` (spec 8: about 5 minutes). A config change takes effect at once (new hash).
 */
export function rateTable(ctx: SandboxContext): Record<string, string> {
  const s = ctx.settings()
  const table = {...DEFAULT_RATES, ...s.exchangeRates}
  const hash = createHash('sha256')
    .update(JSON.stringify(Object.entries(table).sort()))
    .digest('hex')
  const snap = ctx.db.get<Snapshot>('rates', 'current')
  if (snap && snap.hash === hash && ctx.now() - snap.takenAt < s.rateCacheMs) return snap.table
  return ctx.db.put('rates', 'current', {takenAt: ctx.now(), hash, table}).table
}

export function decimalsOf(code: string): number {
  return lookup(code)?.decimals ?? 2
}

/** A decimal string as a fraction of BigInts: "17.25" -> 1725 / 100. */
function fraction(v: string): [bigint, bigint] {
  const [w, f = ''] = v.split('.')
  return [BigInt(w + f), 10n ** BigInt(f.length)]
}

export interface Rate {
  from: string
  to: string
  /** receiving minor units per sending minor unit = num / den, exact. */
  num: bigint
  den: bigint
}

export function rateFor(ctx: SandboxContext, from: string, to: string): Rate {
  const table = rateTable(ctx)
  if (!table[from] || !table[to])
    throw new HttpError(400, 'QUOTE_RATE_UNAVAILABLE', `No ${from}→${to} rate is available in this sandbox`, {from, to})
  const [fn, fd] = fraction(table[from])
  const [tn, td] = fraction(table[to])
  // (to per USD) / (from per USD) in whole units, scaled to minor units on both sides.
  let num = tn * fd * 10n ** BigInt(decimalsOf(to))
  let den = td * fn * 10n ** BigInt(decimalsOf(from))
  const g = gcd(num, den)
  num /= g
  den /= g
  return {from, to, num, den}
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b]
  return a || 1n
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * A converted amount as a number of smallest units, refused (INVALID_INPUT naming `field`) past the
 * largest integer a number holds exactly: the ledger would otherwise round it silently.
 */
function exactMinor(v: bigint, code: string, field: string): number {
  if (v > MAX_EXACT)
    throw invalid([
      {
        field,
        message: `converts to ${v} smallest units of ${code}, past the largest exact amount (${Number.MAX_SAFE_INTEGER}); use a smaller amount or rate`,
      },
    ])
  return Number(v)
}

/** Receiving minor units for `amount` sending minor units (rounded down: the customer never gets more than the rate). */
export function convertDown(rate: Rate, amount: number, field = 'amount'): number {
  return exactMinor((BigInt(amount) * rate.num) / rate.den, rate.to, field)
}

/** Sending minor units needed to deliver `amount` receiving minor units (rounded up). */
export function convertUp(rate: Rate, amount: number, field = 'amount'): number {
  return exactMinor((BigInt(amount) * rate.den + rate.num - 1n) / rate.num, rate.from, field)
}

/** The `exchangeRate` number of the spec: receiving units per sending unit (smallest units). */
export function rateNumber(rate: Rate): number {
  return Number(((rate.num * 10n ** 12n) / rate.den).toString()) / 1e12
}

/** An amount in US cents (for limits and thresholds), rounded up. */
export function toUsdCents(ctx: SandboxContext, code: string, amount: number): number {
  return code === 'USD' ? amount : convertUp(rateFor(ctx, 'USD', code), amount)
}

/** US cents expressed in `code` minor units (fixed fees set in USD), rounded up. */
export function fromUsdCents(ctx: SandboxContext, code: string, cents: number): number {
  if (code === 'USD' || cents === 0) return cents
  const r = rateFor(ctx, 'USD', code)
  return exactMinor((BigInt(cents) * r.num + r.den - 1n) / r.den, code, 'amount')
}
