import {fromMinor} from '../money.js'
import type {ExchangeRate} from '../schemas/reference.js'

type CurrencyLike = {code?: string; decimals?: number}
const units = (minor: number, c: CurrencyLike) => fromMinor(minor, c.decimals ?? 2)

/**
 * One corridor with every amount as an exact decimal string in real units (never a float): the
 * contract's `exchangeRate` (sending units per one receiving unit) is kept as the literal the API
 * sent, under a name that says which way it reads.
 */
export function rateView(r: ExchangeRate) {
  return {
    from: r.sourceCurrency.code,
    to: r.destinationCurrency.code,
    rail: r.destinationPaymentRail,
    sendingAmount: units(r.sendingAmount, r.sourceCurrency),
    receivingAmount: units(r.receivingAmount, r.destinationCurrency),
    sendingPerReceiving: String(r.exchangeRate),
    fees: {
      ...(r.fees.fixed !== undefined ? {fixed: units(r.fees.fixed, r.sourceCurrency)} : {}),
      ...(r.fees.total !== undefined ? {total: units(r.fees.total, r.sourceCurrency)} : {}),
    },
    minSendingAmount: units(r.minSendingAmount, r.sourceCurrency),
    maxSendingAmount: units(r.maxSendingAmount, r.sourceCurrency),
    updatedAt: r.updatedAt,
  }
}
export type RateView = ReturnType<typeof rateView>
