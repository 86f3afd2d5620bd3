import {sendContactCode} from '../../lib/api/kyc.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {sendCode} from '../../lib/workflows/kyc/contact.js'

export default class KycVerifyPhone extends BaseCommand<typeof KycVerifyPhone> {
  static override summary = "Send a one-time code to the customer's phone (run again to resend)"
  static override description =
    'Only for customers whose provider mandates contact verification (e.g. EU regions). In the local ' +
    'sandbox the code is always 123456 and is written to the sandbox log.'
  static override examples = ['<%= config.bin %> kyc verify-phone Customer:0b6f...']
  static override args = {customerId: idArg('Customer')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const req = sendContactCode(this.args.customerId, 'phone')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    await sendCode(this.ctx, this.args.customerId, 'phone', req)
    this.out.success(
      `Code sent to the phone of ${this.args.customerId}. Confirm with: svc kyc confirm-phone ${this.args.customerId} --code <code>`,
    )
    return {customerId: this.args.customerId, channel: 'phone', sent: true}
  }
}
