import {sendContactCode} from '../../lib/api/kyc.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {sendCode} from '../../lib/workflows/kyc/contact.js'

export default class KycVerifyEmail extends BaseCommand<typeof KycVerifyEmail> {
  static override summary = "Send a one-time code to the customer's email (run again to resend)"
  static override description =
    'Only for customers whose provider mandates contact verification (e.g. EU regions). In the local ' +
    'sandbox the code is always 123456 and is written to the sandbox log.'
  static override examples = ['<%= config.bin %> kyc verify-email Customer:0b6f...']
  static override args = {customerId: idArg('Customer')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const req = sendContactCode(this.args.customerId, 'email')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    await sendCode(this.ctx, this.args.customerId, 'email', req)
    this.out.success(
      `Code sent to the email of ${this.args.customerId}. Confirm with: svc kyc confirm-email ${this.args.customerId} --code <code>`,
    )
    return {customerId: this.args.customerId, channel: 'email', sent: true}
  }
}
