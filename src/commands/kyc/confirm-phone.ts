import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {confirmCode, confirmCodeRequestFor} from '../../lib/workflows/kyc/contact.js'
import {renderCustomer} from '../../lib/output/customer.js'

export default class KycConfirmPhone extends BaseCommand<typeof KycConfirmPhone> {
  static override summary = "Confirm the customer's phone with the code that was sent"
  static override examples = ['<%= config.bin %> kyc confirm-phone Customer:0b6f... --code 123456']
  static override args = {customerId: idArg('Customer')}
  static override flags = {
    code: Flags.string({description: 'the one-time code (prompted, hidden, on a terminal when omitted)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.customerId
    const req = await confirmCodeRequestFor(this.ctx, id, 'phone', this.flags.code, {dryRun: this.flags['dry-run']})
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const customer = await confirmCode(this.ctx, id, 'phone', req)
    this.out.success(`The phone of ${customer.id} is VERIFIED`)
    renderCustomer(this.out, customer)
    return customer
  }
}
