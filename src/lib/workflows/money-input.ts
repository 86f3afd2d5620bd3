import {currency} from '../currencies.js'
import type {FieldError} from '../errors.js'
import {MoneyError, parseMinor, toMinor} from '../money.js'

/** A currency code flag: known to svc (its decimals are needed to read amounts in real units). */
export function currencyProblem(code: string | undefined, field: string, errors: FieldError[]): string | undefined {
  if (code === undefined) return undefined
  const c = code.trim().toUpperCase()
  if (!currency(c)) {
    errors.push({field, message: `"${code}" is not a currency code svc knows (USD, EUR, USDC ...)`})
    return undefined
  }
  return c
}

/**
 * `--amount <real units>` or `--amount-minor <smallest units>` as smallest units of `code`, never
 * through a float. Problems are pushed onto `errors` under `field`, so a command names every bad
 * flag at once. Zero is refused unless `allowZero`.
 */
export function minorAmount(
  f: {amount?: string; 'amount-minor'?: string},
  code: string | undefined,
  field: string,
  errors: FieldError[],
  allowZero = false,
): number | undefined {
  try {
    let v: number | undefined
    if (f['amount-minor'] !== undefined) v = parseMinor(f['amount-minor'])
    else if (f.amount !== undefined) {
      if (!code) return undefined // the currency's own problem is reported already
      v = toMinor(f.amount, currency(code)!.decimals)
    }
    if (v === 0 && !allowZero) errors.push({field, message: 'must be more than zero'})
    return v
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e
    errors.push({field, message: e.message})
    return undefined
  }
}
