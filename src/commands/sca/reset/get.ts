import {Args} from '@oclif/core'
import {getReset} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'

export default class ScaResetGet extends BaseCommand<typeof ScaResetGet> {
  static override summary = 'Show a factor reset: INITIATED until liveness passes (LIVENESS_PASSED), then COMPLETED'
  static override examples = ['<%= config.bin %> sca reset get Customer:… ScaReset:… --json']
  static override args = {
    ...customerArg,
    resetId: Args.string({description: 'the resetId from `sca reset start`', required: true}),
  }

  async run() {
    const r = await this.ctx.client.call(getReset(this.args.customerId, this.args.resetId))
    renderKeyValue(this.out, [
      ['status', r.status],
      ['factor', r.factor],
      ['expires', r.expiresAt],
    ])
    return r
  }
}
