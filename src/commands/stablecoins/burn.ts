import {Flags} from '@oclif/core'
import {burnStablecoin} from '../../lib/api/stablecoins.js'
import {BaseCommand} from '../../lib/base-command.js'
import {describeRequest} from '../../lib/dry-run.js'
import {dryRunFlag, idArg, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {burnBody} from '../../lib/flows/stablecoin-input.js'
import {renderOperation} from '../../lib/output/stablecoin.js'
import {BURN_SOURCE_TYPES, PAYOUT_RAILS} from '../../lib/schemas/stablecoins.js'

export default class StablecoinsBurn extends BaseCommand<typeof StablecoinsBurn> {
  static override summary = 'Burn (redeem) a stablecoin to a fiat bank account (STABLECOIN_OPERATION.* webhooks follow)'
  static override description = 'From the platform\'s internal account the coins are held at once and paid out on settlement; from an external wallet the operation waits for the deposit named in its funding instructions.'
  static override examples = ['<%= config.bin %> stablecoins burn Stablecoin:… --amount 25.00 --source GRID_INTERNAL_ACCOUNT --source-account InternalAccount:… --to ExternalAccount:… --rail ACH_CREDIT']
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {
    amount: Flags.string({description: 'amount in real units of the coin (25.00)', exclusive: ['amount-minor']}),
    'amount-minor': Flags.string({description: 'amount in the coin\'s smallest units'}),
    source: Flags.string({description: 'where the burned coins come from', options: [...BURN_SOURCE_TYPES], required: true}),
    'source-account': Flags.string({description: 'GRID_INTERNAL_ACCOUNT: the platform\'s InternalAccount in the coin'}),
    to: Flags.string({description: 'the bank ExternalAccount receiving the fiat', required: true}),
    rail: Flags.string({description: 'fiat payout rail', options: [...PAYOUT_RAILS], required: true}),
    description: Flags.string({description: 'description kept on the operation'}),
    'idempotency-key': idempotencyKeyFlag,
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.stablecoinId
    const body = await burnBody(this.ctx, id, this.flags, this.flags['dry-run'])
    const key = this.ctx.idempotencyKey()
    if (this.flags['dry-run']) return this.dryRun(describeRequest(this.ctx.client, this.ctx.profile.baseUrl, {method: 'POST', path: ['stablecoins', id, 'burns'], body, idempotencyKey: key}))
    this.ctx.banner(`burn ${body.amount} smallest units of ${id}`)
    await this.ctx.confirm(`Burn ${body.amount} smallest units of ${id}?`, {yes: this.flags.yes})
    const op = await burnStablecoin(this.ctx.client, id, body, key)
    this.out.success(`Burn ${op.id}: ${op.status}`)
    renderOperation(this.out, op)
    return op
  }
}
