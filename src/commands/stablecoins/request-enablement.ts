import {requestEnablement} from '../../lib/api/stablecoins.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {renderStablecoin} from '../../lib/output/stablecoin.js'

export default class StablecoinsRequestEnablement extends BaseCommand<typeof StablecoinsRequestEnablement> {
  static override summary =
    'Ask for a stablecoin to be enabled for Service operations (NOT_ENABLED -> PENDING_APPROVAL; repeating is fine)'
  static override description =
    'ENABLING, ENABLED and DISABLED are set by the operator and cannot be requested (409 ' +
    'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE, exit 6).'
  static override examples = ['<%= config.bin %> stablecoins request-enablement Stablecoin:…']
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const id = this.args.stablecoinId
    const req = requestEnablement(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const coin = await this.ctx.client.call(req)
    this.out.success(`${coin.id}: ${coin.gridOperationsStatus}`)
    renderStablecoin(this.out, coin)
    return coin
  }
}
