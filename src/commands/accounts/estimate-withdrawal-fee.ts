import {Flags} from '@oclif/core'
import {estimateWithdrawalFee} from '../../lib/api/withdrawal.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError, type FieldError} from '../../lib/errors.js'
import {idArg} from '../../lib/flags.js'
import {currencyProblem, minorAmount} from '../../lib/flows/money-input.js'
import {fromMinor} from '../../lib/money.js'
import {currency} from '../../lib/currencies.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {FEE_ASSET_DECIMALS, WITHDRAWAL_NETWORKS, estimateWithdrawalFeeRequest} from '../../lib/schemas/withdrawal.js'

export default class AccountsEstimateWithdrawalFee extends BaseCommand<typeof AccountsEstimateWithdrawalFee> {
  static override summary = 'Estimate the network and application fees of a crypto withdrawal, and what the recipient receives'
  static override examples = ['<%= config.bin %> accounts estimate-withdrawal-fee InternalAccount:… --currency USDC --network SOLANA --to 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU --amount 10.00']
  static override args = {internalAccountId: idArg('InternalAccount', 'the crypto internal account to withdraw from (InternalAccount:<id>)')}
  static override flags = {
    currency: Flags.string({description: 'asset to withdraw (USDC, USDT, BTC, USDB)', required: true}),
    network: Flags.string({description: 'blockchain network', options: [...WITHDRAWAL_NETWORKS], required: true}),
    to: Flags.string({description: 'destination address (checked against the network\'s format)', required: true}),
    amount: Flags.string({description: 'amount to withdraw in real units (10.00)', exclusive: ['amount-minor']}),
    'amount-minor': Flags.string({description: 'amount to withdraw in smallest units'}),
  }

  async run() {
    const f = this.flags
    const errors: FieldError[] = []
    const code = currencyProblem(f.currency, 'currency', errors)
    if (f.amount === undefined && f['amount-minor'] === undefined) errors.push({field: 'amount', message: 'give --amount <real units> or --amount-minor <smallest units>'})
    const amount = minorAmount(f, code, 'amount', errors)
    const body = {internalAccountId: this.args.internalAccountId, currency: code ?? f.currency, cryptoNetwork: f.network, amount: amount ?? 1, destinationAddress: f.to.trim()}
    const r = estimateWithdrawalFeeRequest.safeParse(body)
    if (!r.success) for (const e of fieldErrors(r.error)) if (!errors.some((x) => x.field === e.field)) errors.push(e)
    if (errors.length || !r.success) throw new InputError(errors)
    const estimate = await estimateWithdrawalFee(this.ctx.client, r.data)
    const d = currency(r.data.currency)?.decimals ?? 2
    const feeDecimals = FEE_ASSET_DECIMALS[estimate.networkFeeAsset]
    renderKeyValue(this.out, [
      ['Amount', `${fromMinor(r.data.amount, d)} ${r.data.currency}`],
      ['Network fee', feeDecimals === undefined ? `${estimate.networkFee} (smallest units of ${estimate.networkFeeAsset})` : `${fromMinor(estimate.networkFee, feeDecimals)} ${estimate.networkFeeAsset}`],
      ['Application fee', `${fromMinor(estimate.applicationFee, d)} ${r.data.currency}`],
      ['Total fee', `${fromMinor(estimate.totalFee, d)} ${r.data.currency}`],
      ['Recipient gets', `${fromMinor(estimate.netAmount, d)} ${r.data.currency}`],
    ])
    return estimate
  }
}
