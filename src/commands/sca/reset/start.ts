import {Flags} from '@oclif/core'
import {startReset} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'
import {SCA_FACTORS} from '../../../lib/schemas/sca.js'

export default class ScaResetStart extends BaseCommand<typeof ScaResetStart> {
  static override summary =
    'Start recovering a lost SCA factor: a liveness check the customer completes (at most 5 per 24 hours)'
  static override examples = ['<%= config.bin %> sca reset start Customer:… --factor PASSKEY --json']
  static override args = customerArg
  static override flags = {
    factor: Flags.string({description: 'the lost factor', options: [...SCA_FACTORS], required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const req = startReset(this.args.customerId, this.flags.factor)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const r = await this.ctx.client.call(req)
    renderKeyValue(this.out, [
      ['resetId', r.resetId],
      ['liveness link', r.verificationLink],
      ['expires', r.expiresAt],
    ])
    this.out.info(
      this.out.dim(`Poll: svc sca reset get ${this.args.customerId} ${r.resetId}; then svc sca reset complete ...`),
    )
    const {livenessAccessToken: _handle, ...shown} = r
    return shown
  }
}
