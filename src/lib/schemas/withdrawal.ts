import * as z from 'zod'
import {walletAddressProblem} from '../account-checks.js'
import {idOf} from './common.js'
import {CRYPTO_NETWORKS} from './quote-enums.js'

/** The networks a withdrawal leaves on: the Service's crypto networks, as quotes name them. */
export const WITHDRAWAL_NETWORKS = CRYPTO_NETWORKS

/** Which assets leave on which network (the sandbox's stablecoin and bitcoin rails). */
export const NETWORK_ASSETS: Record<(typeof WITHDRAWAL_NETWORKS)[number], string[]> = {
  SOLANA: ['USDC', 'USDT'],
  ETHEREUM: ['USDC', 'USDT'],
  BASE: ['USDC'],
  POLYGON: ['USDC'],
  TRON: ['USDT'],
  PLASMA: ['USDT'],
  BITCOIN: ['BTC'],
  LIGHTNING: ['BTC'],
  L2: ['BTC', 'USDB'],
}

const WALLET_KIND: Record<string, string> = {
  SOLANA: 'SOLANA_WALLET',
  ETHEREUM: 'ETHEREUM_WALLET',
  BASE: 'BASE_WALLET',
  POLYGON: 'POLYGON_WALLET',
  TRON: 'TRON_WALLET',
  PLASMA: 'PLASMA_WALLET',
  L2: 'L2_WALLET',
}

/** The address format a network takes; undefined when the address fits. */
export function withdrawalAddressProblem(network: string, address: string): string | undefined {
  if (network === 'BITCOIN')
    return /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/.test(address)
      ? undefined
      : 'must be a Bitcoin address (bc1... or a legacy 1.../3... address)'
  if (network === 'LIGHTNING')
    return /^ln(bc|tb|bcrt)[0-9a-z]{20,}$/i.test(address) ? undefined : 'must be a Lightning invoice (lnbc...)'
  return WALLET_KIND[network] ? walletAddressProblem(WALLET_KIND[network], address) : undefined
}

/** POST /crypto/estimate-withdrawal-fee: shared by the CLI (checked before sending) and the sandbox. */
export const estimateWithdrawalFeeRequest = z
  .strictObject({
    internalAccountId: idOf('InternalAccount'),
    currency: z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USDC, USDT, BTC ...)'}),
    cryptoNetwork: z.enum(WITHDRAWAL_NETWORKS),
    amount: z.number().int({message: 'must be a whole number of smallest units'}).positive(),
    destinationAddress: z.string().min(1).max(200),
  })
  .superRefine(
    (b, ctx) => {
      const assets = NETWORK_ASSETS[b.cryptoNetwork]
      if (!assets || typeof b.currency !== 'string') return
      if (!assets.includes(b.currency))
        ctx.addIssue({
          code: 'custom',
          path: ['currency'],
          message: `${b.currency} does not leave on ${b.cryptoNetwork} (${assets.join(', ')} do)`,
        })
      const problem =
        typeof b.destinationAddress === 'string'
          ? withdrawalAddressProblem(b.cryptoNetwork, b.destinationAddress)
          : undefined
      if (problem) ctx.addIssue({code: 'custom', path: ['destinationAddress'], message: problem})
    },
    {when: () => true},
  )
export type EstimateWithdrawalFeeRequest = z.infer<typeof estimateWithdrawalFeeRequest>

export const withdrawalFeeEstimateSchema = z.looseObject({
  networkFee: z.number().int(),
  networkFeeAsset: z.string(),
  applicationFee: z.number().int(),
  totalFee: z.number().int(),
  netAmount: z.number().int(),
})
export type WithdrawalFeeEstimate = z.infer<typeof withdrawalFeeEstimateSchema>

/** Decimals of the assets network fees are paid in (for display). */
export const FEE_ASSET_DECIMALS: Record<string, number> = {SOL: 9, ETH: 18, POL: 18, TRX: 6, XPL: 18, BTC: 8}
