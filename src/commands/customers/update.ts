import {getCustomer} from '../../lib/api/customers.js'
import {walletOps} from '../../lib/api/wallet.js'
import {updateCustomerSigned} from '../../lib/workflows/wallet/ops.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, readJsonObject, choiceFlag} from '../../lib/flags.js'
import {customerFlags} from '../../lib/flags-customer.js'
import {checkUpdate, customerBody} from '../../lib/workflows/customer/input.js'
import {renderCustomer} from '../../lib/output/customer.js'
import {customerSchema} from '../../lib/schemas/customer.js'
import {usageError} from '../../lib/errors.js'

export default class CustomersUpdate extends BaseCommand<typeof CustomersUpdate> {
  static override summary = 'Update a customer (PATCH): only the fields you pass change'
  static override examples = [
    '<%= config.bin %> customers update Customer:0b6f... --address-line1 "1 Main St" --address-postal-code 94105 --address-country US',
    '<%= config.bin %> customers update Customer:0b6f... --data @patch.json',
  ]
  static override args = {customerId: idArg('Customer')}
  static override flags = {
    type: choiceFlag(['INDIVIDUAL', 'BUSINESS'], {description: 'customer type (looked up when omitted)'}),
    ...customerFlags,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const data = f.data ? readJsonObject(f.data) : {}
    const body = customerBody(f, data)
    if (Object.keys(body).filter((k) => k !== 'customerType').length === 0)
      throw usageError('Nothing to update', 'Pass at least one field flag or --data.')
    // customerType is the PATCH discriminator; look it up rather than make the operator repeat it
    // (a dry run sends nothing, so it infers it from the business-only fields instead).
    body.customerType ??= f['dry-run']
      ? 'businessInfo' in body || 'kybStatus' in body
        ? 'BUSINESS'
        : 'INDIVIDUAL'
      : (await this.ctx.client.call(getCustomer(this.args.customerId))).customerType
    const input = checkUpdate(body)
    const op = walletOps.updateCustomer(this.args.customerId, input as Record<string, unknown>)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(op))
    // A tied wallet email/phone answers 202: the engine signs with a session of the customer's wallet.
    const res = await updateCustomerSigned(this.ctx, op)
    const customer = this.ctx.client.parse(customerSchema, res.body, 'customer')
    this.out.success(`Updated ${customer.id}`)
    renderCustomer(this.out, customer)
    return customer
  }
}
