/**
 * Money is an integer of minor units inside; decimal strings only at the edges. Parsing works on
 * the digits of the string, never through a float, so "0.1" + "0.2" stays exact.
 */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/

export class MoneyError extends Error {}

/** "12.50" with 2 decimals -> 1250. Refuses more fractional digits than the currency has. */
export function toMinor(value: string, decimals: number): number {
  const v = value.trim().replaceAll(',', '').replaceAll('_', '')
  const m = DECIMAL.exec(v)
  if (!m) throw new MoneyError(`"${value}" is not a decimal amount (e.g. 250.00)`)
  const whole = m[1]
  const frac = m[2] ?? ''
  if (frac.length > decimals) {
    throw new MoneyError(`"${value}" has ${frac.length} decimal places; this currency has ${decimals}`)
  }
  const minor = BigInt(whole + frac.padEnd(decimals, '0'))
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyError(`"${value}" is too large`)
  return Number(minor)
}

/** 1250 with 2 decimals -> "12.50"; grouped with commas when `group` is set. */
export function fromMinor(minor: number, decimals: number, group = false): string {
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`${minor} is not an integer amount`)
  const negative = minor < 0
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0')
  let whole = decimals ? digits.slice(0, -decimals) : digits
  const frac = decimals ? digits.slice(-decimals) : ''
  if (group) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${whole}${frac ? '.' + frac : ''}`
}

/** Parses a non-negative integer string of minor units ("1250"). */
export function parseMinor(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new MoneyError(`"${value}" is not a whole number of minor units`)
  const n = Number(value.trim())
  if (!Number.isSafeInteger(n)) throw new MoneyError(`"${value}" is too large`)
  return n
}
