import {Flags} from '@oclif/core'
import {startEnrolment} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {redact} from '../../../lib/secret.js'

export default class ScaFactorsEnrol extends BaseCommand<typeof ScaFactorsEnrol> {
  static override summary =
    'Start enrolling an SCA factor: TOTP (a shared secret for the authenticator app) or PASSKEY (WebAuthn options; one per customer)'
  static override examples = [
    '<%= config.bin %> sca factors enrol Customer:… --type PASSKEY --json',
    '<%= config.bin %> sca factors enrol Customer:… --type TOTP --show-secret',
  ]
  static override args = customerArg
  static override flags = {
    type: Flags.string({description: 'factor to enrol', options: ['TOTP', 'PASSKEY'], required: true}),
    'show-secret': Flags.boolean({
      description: 'print the TOTP secret and otpauth URI (hidden otherwise: hand it to the customer once)',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const req = startEnrolment(this.args.customerId, this.flags.type as 'TOTP' | 'PASSKEY')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const started = await this.ctx.client.call(req)
    const shown = this.flags['show-secret'] ? started : (redact(started) as typeof started)
    this.out.success(`${this.flags.type} enrolment started for ${this.args.customerId}`)
    this.out.info(
      this.out.dim(`Finish with: svc sca factors confirm ${this.args.customerId} --type ${this.flags.type} ...`),
    )
    if (!this.out.json) this.out.printJson(shown)
    return shown
  }
}
