import {getStablecoin} from '../../lib/api/stablecoins.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderStablecoin} from '../../lib/output/stablecoin.js'

export default class StablecoinsGet extends BaseCommand<typeof StablecoinsGet> {
  static override summary = 'Show a stablecoin, its issuance and enablement status'
  static override examples = ['<%= config.bin %> stablecoins get Stablecoin:…']
  static override args = {stablecoinId: idArg('Stablecoin')}

  async run() {
    const coin = await this.ctx.client.call(getStablecoin(this.args.stablecoinId))
    renderStablecoin(this.out, coin)
    return coin
  }
}
