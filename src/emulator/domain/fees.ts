import type {SandboxContext} from '../context.js'
import {fromUsdCents} from './rates.js'

export interface PlatformFeeSpec {
  fixed: number
  bps: number
}

export interface Fees {
  service: number
  platform: number
}

const bpsOf = (amount: number, bps: number) => Math.ceil((amount * bps) / 10000)

/**
 * Fees in sending minor units on a net amount: the service fee (fixed per rail, ACH and ACH_SAME_DAY
 * priced separately, plus basis points on cross-currency) and the platform fee (PATCH /config
 * feeConfigs, or the quote's platformFeeOverride; both need a USD source).
 */
export function feesFor(
  ctx: SandboxContext,
  o: {from: string; to: string; rail?: string; net: number; override?: PlatformFeeSpec},
): Fees {
  const s = ctx.settings()
  const cross = o.from !== o.to
  const railCents = s.railFeesUsdCents[o.rail ?? 'DEFAULT'] ?? s.railFeesUsdCents.DEFAULT ?? 0
  const service = fromUsdCents(ctx, o.from, railCents) + (cross ? bpsOf(o.net, s.crossCurrencyFeeBps) : 0)
  let platform = 0
  if (o.from === 'USD') {
    const standing = ctx
      .config()
      .feeConfigs.find((f) => f.feeType === 'CROSS_CURRENCY_TRANSACTION' && f.sourceCurrency === 'USD')
    const spec =
      o.override ?? (cross && standing ? {fixed: standing.fixedFee.amount, bps: standing.variableFeeBps} : undefined)
    if (spec) platform = spec.fixed + bpsOf(o.net, spec.bps)
  }
  return {service, platform}
}
