import {getOperation} from '../../../lib/api/stablecoins.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg} from '../../../lib/flags.js'
import {renderOperation} from '../../../lib/output/stablecoin.js'

export default class OperationsGet extends BaseCommand<typeof OperationsGet> {
  static override summary = 'Show a stablecoin mint or burn operation'
  static override examples = ['<%= config.bin %> stablecoins operations get StablecoinOperation:…']
  static override args = {operationId: idArg('StablecoinOperation')}

  async run() {
    const op = await this.ctx.client.call(getOperation(this.args.operationId))
    renderOperation(this.out, op)
    return op
  }
}
