import {Args, Flags} from '@oclif/core'
import {completeReset} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'
import {resetCompleteRequest} from '../../../lib/schemas/sca.js'
import {checkWith} from '../../../lib/validate.js'

export default class ScaResetComplete extends BaseCommand<typeof ScaResetComplete> {
  static override summary =
    'Complete a factor reset after liveness passed: the lost factor is cleared (SMS_OTP: the new number is enrolled)'
  static override examples = [
    '<%= config.bin %> sca reset complete Customer:… ScaReset:…',
    '<%= config.bin %> sca reset complete Customer:… ScaReset:… --country-code +49 --number 15112345678',
  ]
  static override args = {
    ...customerArg,
    resetId: Args.string({description: 'the resetId from `sca reset start`', required: true}),
  }
  static override flags = {
    'country-code': Flags.string({
      description: 'SMS_OTP reset: country calling code of the new number (+49)',
      dependsOn: ['number'],
    }),
    number: Flags.string({
      description: 'SMS_OTP reset: the new mobile number, digits only',
      dependsOn: ['country-code'],
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = checkWith(
      resetCompleteRequest,
      f.number ? {mobile: {countryCode: f['country-code'], number: f.number}} : {},
    )
    const req = completeReset(this.args.customerId, this.args.resetId, body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    await this.ctx.client.call(req)
    this.out.success(`Reset ${this.args.resetId} completed; the customer can enrol again`)
    return {customerId: this.args.customerId, resetId: this.args.resetId, status: 'COMPLETED'}
  }
}
