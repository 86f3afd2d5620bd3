import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {burnBody} from '../../lib/workflows/stablecoin/input.js'
import {submitOperation} from '../../lib/workflows/stablecoin/operation.js'
import {BURN_SOURCE_TYPES, PAYOUT_RAILS} from '../../lib/schemas/stablecoins.js'

export default class StablecoinsBurn extends BaseCommand<typeof StablecoinsBurn> {
  static override summary =
    'Burn (redeem) a stablecoin to a fiat bank account; follow it with `stablecoins operations get` (INTERNAL_ACCOUNT.BALANCE_UPDATED when a platform balance moves)'
  static override description =
    "From the platform's internal account the coins are held at once and paid out on settlement; from an external wallet the operation waits for the deposit named in its funding instructions."
  static override examples = [
    '<%= config.bin %> stablecoins burn Stablecoin:… --amount 25.00 --source GRID_INTERNAL_ACCOUNT --source-account InternalAccount:… --to ExternalAccount:… --rail ACH_CREDIT',
  ]
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {
    amount: Flags.string({description: 'amount in real units of the coin (25.00)', exclusive: ['amount-minor']}),
    'amount-minor': Flags.string({description: "amount in the coin's smallest units"}),
    source: Flags.string({
      description: 'where the burned coins come from',
      options: [...BURN_SOURCE_TYPES],
      required: true,
    }),
    'source-account': Flags.string({description: "GRID_INTERNAL_ACCOUNT: the platform's InternalAccount in the coin"}),
    to: Flags.string({description: 'the bank ExternalAccount receiving the fiat', required: true}),
    rail: Flags.string({description: 'fiat payout rail', options: [...PAYOUT_RAILS], required: true}),
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
      {kind: 'burn', id, body: (dry) => burnBody(this.ctx, id, f, dry), yes: f.yes, dryRun: f['dry-run']},
      (d) => this.dryRun(d),
    )
  }
}
