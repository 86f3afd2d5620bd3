import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {mintBody} from '../../lib/workflows/stablecoin/input.js'
import {submitOperation} from '../../lib/workflows/stablecoin/operation.js'
import {MINT_FUNDING_TYPES} from '../../lib/schemas/stablecoins.js'

export default class StablecoinsMint extends BaseCommand<typeof StablecoinsMint> {
  static override summary =
    'Mint a stablecoin; follow it with `stablecoins operations get` (INTERNAL_ACCOUNT.BALANCE_UPDATED when a platform balance moves)'
  static override description =
    "The amount must be a whole number of fiat cents. Into an internal account only once the coin is ENABLED; funded from the platform's own internal account, the fiat is held at once and paid out on settlement."
  static override examples = [
    '<%= config.bin %> stablecoins mint Stablecoin:… --amount 100.00 --funding ACH_DEBIT --funding-account ExternalAccount:… --to ExternalAccount:…',
    '<%= config.bin %> stablecoins mint Stablecoin:… --amount-minor 5000000 --funding GRID_INTERNAL_ACCOUNT --funding-account InternalAccount:… --to InternalAccount:… --json',
  ]
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {
    amount: Flags.string({description: 'amount in real units of the coin (100.00)', exclusive: ['amount-minor']}),
    'amount-minor': Flags.string({description: "amount in the coin's smallest units"}),
    funding: Flags.string({description: 'how the mint is funded', options: [...MINT_FUNDING_TYPES], required: true}),
    'funding-account': Flags.string({
      description:
        "ACH: the ExternalAccount debited; GRID_INTERNAL_ACCOUNT: the platform's own InternalAccount in the coin's base currency",
    }),
    'source-token': Flags.string({description: 'PROVIDER_INTERNAL_BALANCE: token spent from the provider balance'}),
    'crypto-network': Flags.string({description: 'PROVIDER_INTERNAL_BALANCE: network of that balance'}),
    to: Flags.string({
      description:
        "account receiving the coins: an L2 wallet ExternalAccount, or the platform's InternalAccount in the coin",
      required: true,
    }),
    description: Flags.string({description: 'description kept on the operation'}),
    'idempotency-key': idempotencyKeyFlag,
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const id = this.args.stablecoinId
    return submitOperation(
      this.ctx,
      this.out,
      {kind: 'mint', id, body: (dry) => mintBody(this.ctx, id, f, dry), yes: f.yes, dryRun: f['dry-run']},
      (d) => this.dryRun(d),
    )
  }
}
