import {Flags} from '@oclif/core'
import {estimateWithdrawalFee} from '../../lib/api/withdrawal.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {withdrawalFeeInput} from '../../lib/workflows/withdrawal-input.js'
import {fromMinor} from '../../lib/money.js'
import {currency} from '../../lib/currencies.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {FEE_ASSET_DECIMALS, WITHDRAWAL_NETWORKS} from '../../lib/schemas/withdrawal.js'

export default class AccountsEstimateWithdrawalFee extends BaseCommand<typeof AccountsEstimateWithdrawalFee> {
  static override summary =
    'Estimate the network and application fees of a crypto withdrawal, and what the recipient receives'
  static override examples = [
    '<%= config.bin %> accounts estimate-withdrawal-fee InternalAccount:… --currency USDC --network SOLANA --to 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU --amount 10.00',
  ]
  static override args = {
    internalAccountId: idArg('InternalAccount', 'the crypto internal account to withdraw from (InternalAccount:<id>)'),
  }
  static override flags = {
    currency: Flags.string({description: 'asset to withdraw (USDC, USDT, BTC, USDB)', required: true}),
    network: Flags.string({description: 'blockchain network', options: [...WITHDRAWAL_NETWORKS], required: true}),
    to: Flags.string({description: "destination address (checked against the network's format)", required: true}),
    amount: Flags.string({description: 'amount to withdraw in real units (10.00)', exclusive: ['amount-minor']}),
    'amount-minor': Flags.string({description: 'amount to withdraw in smallest units'}),
  }

  async run() {
    const body = withdrawalFeeInput(this.args.internalAccountId, this.flags)
    const estimate = await this.ctx.client.call(estimateWithdrawalFee(body))
    const d = currency(body.currency)?.decimals ?? 2
    const feeDecimals = FEE_ASSET_DECIMALS[estimate.networkFeeAsset]
    renderKeyValue(this.out, [
      ['Amount', `${fromMinor(body.amount, d)} ${body.currency}`],
      [
        'Network fee',
        feeDecimals === undefined
          ? `${estimate.networkFee} (smallest units of ${estimate.networkFeeAsset})`
          : `${fromMinor(estimate.networkFee, feeDecimals)} ${estimate.networkFeeAsset}`,
      ],
      ['Application fee', `${fromMinor(estimate.applicationFee, d)} ${body.currency}`],
      ['Total fee', `${fromMinor(estimate.totalFee, d)} ${body.currency}`],
      ['Recipient gets', `${fromMinor(estimate.netAmount, d)} ${body.currency}`],
    ])
    return estimate
  }
}
