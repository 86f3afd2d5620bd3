import {deleteCustomer} from '../../lib/api/customers.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'
import {renderCustomer} from '../../lib/output/customer.js'

export default class CustomersDelete extends BaseCommand<typeof CustomersDelete> {
  static override summary = 'Delete a customer (asks first on a TTY; needs --yes off one)'
  static override examples = ['<%= config.bin %> customers delete Customer:0b6f... --yes']
  static override args = {customerId: idArg('Customer')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.customerId
    const req = deleteCustomer(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`delete ${id}`)
    await this.ctx.confirm(`Delete ${id}?`, {yes: this.flags.yes, irreversible: true})
    const customer = await this.ctx.client.call(req)
    this.out.success(`Deleted ${customer.id}`)
    renderCustomer(this.out, customer)
    return customer
  }
}
