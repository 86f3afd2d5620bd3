import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {confirmCode} from '../../lib/workflows/kyc/contact.js'
import {renderCustomer} from '../../lib/output/customer.js'

export default class KycConfirmPhone extends BaseCommand<typeof KycConfirmPhone> {
  static override summary = "Confirm the customer's phone with the code that was sent"
  static override examples = ['<%= config.bin %> kyc confirm-phone Customer:0b6f... --code 123456']
  static override args = {customerId: idArg('Customer')}
  static override flags = {
    code: Flags.string({description: 'the one-time code (prompted, hidden, on a terminal when omitted)'}),
  }

  async run() {
    const customer = await confirmCode(this.ctx, this.args.customerId, 'phone', this.flags.code)
    this.out.success(`The phone of ${customer.id} is VERIFIED`)
    renderCustomer(this.out, customer)
    return customer
  }
}
