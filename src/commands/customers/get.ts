import {getCustomer} from '../../lib/api/customers.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderCustomer} from '../../lib/output/customer.js'

export default class CustomersGet extends BaseCommand<typeof CustomersGet> {
  static override summary = 'Show one customer'
  static override examples = ['<%= config.bin %> customers get Customer:0b6f... --json']
  static override args = {customerId: idArg('Customer')}

  async run() {
    const customer = await this.ctx.client.call(getCustomer(this.args.customerId))
    renderCustomer(this.out, customer)
    return customer
  }
}
