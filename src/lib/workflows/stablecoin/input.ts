import type {z} from 'zod'
import {getStablecoin} from '../../api/stablecoins.js'
import type {Context} from '../../context.js'
import {InputError, usageError} from '../../errors.js'
import {MoneyError, toMinor} from '../../money.js'
import {burnRequest, mintRequest} from '../../schemas/stablecoins.js'
import {checkWith, compact} from '../../validate.js'

/**
 * Flags -> mint and burn bodies, checked with the shared schemas before any request. `--amount` is
 * in real units of the coin and needs its decimals (one GET, nothing sent that changes anything);
 * `--amount-minor` is the API's string of smallest units as is.
 */
export interface AmountFlags {
  amount?: string
  'amount-minor'?: string
}

function checkAmountFlags(f: AmountFlags): void {
  if (f.amount === undefined && f['amount-minor'] === undefined)
    throw usageError('Give --amount <real units> or --amount-minor <smallest units>')
  if (f.amount !== undefined && !/^\d+(\.\d+)?$/.test(f.amount.trim()))
    throw new InputError([{field: 'amount', message: `"${f.amount}" is not a decimal amount (e.g. 12.50)`}])
  if (f['amount-minor'] !== undefined && !/^[1-9]\d{0,29}$/.test(f['amount-minor'].trim()))
    throw new InputError([
      {field: 'amount', message: `--amount-minor "${f['amount-minor']}" must be a positive whole number`},
    ])
}

async function amountOf(ctx: Context, stablecoinId: string, f: AmountFlags, dryRun: boolean): Promise<string> {
  if (f['amount-minor'] !== undefined) return f['amount-minor'].trim()
  if (dryRun)
    throw usageError(
      "--dry-run sends nothing, so the stablecoin's decimals are not looked up to convert --amount",
      'Give --amount-minor <smallest units> with --dry-run.',
    )
  const coin = await ctx.client.call(getStablecoin(stablecoinId))
  try {
    const minor = toMinor(f.amount!, coin.decimals)
    if (minor <= 0) throw new MoneyError('must be more than zero')
    return String(minor)
  } catch (e) {
    throw e instanceof MoneyError
      ? new InputError([{field: 'amount', message: `${e.message} (${coin.symbol} has ${coin.decimals} decimals)`}])
      : e
  }
}

export interface MintFlags extends AmountFlags {
  funding?: string
  'funding-account'?: string
  'source-token'?: string
  'crypto-network'?: string
  to?: string
  description?: string
}

function fundingSource(f: MintFlags): Record<string, unknown> {
  switch (f.funding) {
    case 'ACH_DEBIT':
    case 'SAME_DAY_ACH_DEBIT':
      return {type: f.funding, externalAccountId: f['funding-account']}
    case 'GRID_INTERNAL_ACCOUNT':
      return {type: f.funding, accountId: f['funding-account']}
    case 'PROVIDER_INTERNAL_BALANCE':
      return {type: f.funding, sourceTokenIdentifier: f['source-token'], cryptoNetwork: f['crypto-network']}
    default:
      return {type: f.funding}
  }
}

/** The mint body; every bad field is named at once (exit 2). The amount placeholder keeps the check local. */
export async function mintBody(
  ctx: Context,
  stablecoinId: string,
  f: MintFlags,
  dryRun: boolean,
): Promise<z.infer<typeof mintRequest>> {
  checkAmountFlags(f)
  const shape = compact({
    amount: '1',
    fundingSource: fundingSource(f),
    destination: {accountId: f.to},
    description: f.description,
  })
  checkWith(mintRequest, shape)
  return {...(shape as z.infer<typeof mintRequest>), amount: await amountOf(ctx, stablecoinId, f, dryRun)}
}

export interface BurnFlags extends AmountFlags {
  source?: string
  'source-account'?: string
  to?: string
  rail?: string
  description?: string
}

export async function burnBody(
  ctx: Context,
  stablecoinId: string,
  f: BurnFlags,
  dryRun: boolean,
): Promise<z.infer<typeof burnRequest>> {
  checkAmountFlags(f)
  const source =
    f.source === 'GRID_INTERNAL_ACCOUNT' ? {type: f.source, accountId: f['source-account']} : {type: f.source}
  const shape = compact({
    amount: '1',
    source,
    destination: {type: 'EXTERNAL_ACCOUNT', externalAccountId: f.to, rail: f.rail},
    description: f.description,
  })
  checkWith(burnRequest, shape)
  return {...(shape as z.infer<typeof burnRequest>), amount: await amountOf(ctx, stablecoinId, f, dryRun)}
}
