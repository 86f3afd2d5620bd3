import {Flags} from '@oclif/core'
import {sandboxSetEnablement} from '../../../lib/api/stablecoins.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../../lib/flags.js'
import {renderStablecoin} from '../../../lib/output/stablecoin.js'
import {OPERATOR_STATUSES} from '../../../lib/schemas/stablecoins.js'

export default class SandboxStablecoinsEnablement extends BaseCommand<typeof SandboxStablecoinsEnablement> {
  static override summary =
    "Sandbox: play the operator and move a stablecoin's enablement (ENABLING, ENABLED, DISABLED)"
  static override description =
    'The platform requests enablement first (`svc stablecoins request-enablement`). ENABLED gives the ' +
    'coin its Service currency and the platform an internal account in it.'
  static override examples = ['<%= config.bin %> sandbox stablecoins enablement Stablecoin:… --status ENABLED']
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {
    status: Flags.string({description: "the operator's state", options: [...OPERATOR_STATUSES], required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.stablecoinId
    this.ctx.refuseInProduction('sandbox stablecoins enablement')
    const req = sandboxSetEnablement(id, this.flags.status)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const coin = await this.ctx.client.call(req)
    this.out.success(`${coin.id}: ${coin.gridOperationsStatus}`)
    renderStablecoin(this.out, coin)
    return coin
  }
}
