import {Flags} from '@oclif/core'
import {startLogin} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'
import {SCA_FACTORS} from '../../../lib/schemas/sca.js'

export default class ScaLoginStart extends BaseCommand<typeof ScaLoginStart> {
  static override summary =
    'Start an SCA login for a customer (SMS_OTP sends a code; TOTP reads the app; PASSKEY returns WebAuthn options)'
  static override examples = ['<%= config.bin %> sca login start Customer:… --factor SMS_OTP --json']
  static override args = customerArg
  static override flags = {
    factor: Flags.string({description: 'factor to log in with', options: [...SCA_FACTORS], default: 'SMS_OTP'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const req = startLogin(this.args.customerId, this.flags.factor)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const started = await this.ctx.client.call(req)
    renderKeyValue(this.out, [
      ['factor', started.factor],
      ['challengeId', started.challengeId],
      ['expires', started.expiresAt],
    ])
    const challenge = started.challengeId ? ` --challenge-id ${started.challengeId}` : ''
    this.out.info(
      this.out.dim(
        `Then: svc sca login complete ${this.args.customerId} --factor ${started.factor}${challenge} --code -`,
      ),
    )
    return started
  }
}
