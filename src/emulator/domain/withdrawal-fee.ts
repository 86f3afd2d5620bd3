import type {EstimateWithdrawalFeeRequest} from '../../lib/schemas/withdrawal.js'
import type {SandboxContext} from '../context.js'
import {badRequest, invalid} from '../http-error.js'
import {getInternalAccount} from './ledger.js'
import {fromUsdCents} from './rates.js'

/**
 * What one on-chain withdrawal costs per network: the fee in the network's own asset (smallest
 * units) and its worth in US cents, from which the charge in the withdrawal currency follows.
 * Fixed sandbox figures of the right order of magnitude.
 */
const NETWORK_FEES: Record<string, {asset: string; fee: number; usdCents: number}> = {
  SOLANA: {asset: 'SOL', fee: 5_000, usdCents: 1},
  ETHEREUM: {asset: 'ETH', fee: 1_050_000_000_000_000, usdCents: 350},
  BASE: {asset: 'ETH', fee: 20_000_000_000_000, usdCents: 7},
  POLYGON: {asset: 'POL', fee: 5_000_000_000_000_000, usdCents: 1},
  TRON: {asset: 'TRX', fee: 13_000_000, usdCents: 350},
  PLASMA: {asset: 'XPL', fee: 0, usdCents: 0},
  BITCOIN: {asset: 'BTC', fee: 1_500, usdCents: 100},
  LIGHTNING: {asset: 'BTC', fee: 10, usdCents: 1},
  L2: {asset: 'BTC', fee: 0, usdCents: 0},
}

/** POST /crypto/estimate-withdrawal-fee: the account must hold the asset; the amount must cover the fee and fit the size limit. */
export function estimateWithdrawalFee(ctx: SandboxContext, b: EstimateWithdrawalFeeRequest) {
  const account = getInternalAccount(ctx, b.internalAccountId)
  const held = account.balance.currency.code
  if (held !== b.currency)
    throw invalid([{field: 'currency', message: `${account.id} holds ${held}, not ${b.currency}`}])
  const limit = ctx.settings().transactionSizeLimits[b.currency]
  if (limit !== undefined && b.amount > limit) {
    throw badRequest(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `${b.amount} exceeds the single-withdrawal maximum of ${limit} (smallest units of ${b.currency})`,
      {limit, amount: b.amount},
    )
  }
  const n = NETWORK_FEES[b.cryptoNetwork]
  const applicationFee = 0
  const totalFee = fromUsdCents(ctx, b.currency, n.usdCents) + applicationFee
  const netAmount = b.amount - totalFee
  if (netAmount <= 0)
    throw badRequest(
      'INVALID_AMOUNT',
      `${b.amount} does not cover the ${totalFee} fee (smallest units of ${b.currency})`,
      {amount: b.amount, totalFee},
    )
  return {networkFee: n.fee, networkFeeAsset: n.asset, applicationFee, totalFee, netAmount}
}
