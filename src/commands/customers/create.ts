import {Flags} from '@oclif/core'
import {createCustomer} from '../../lib/api/customers.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, readJsonObject, choiceFlag} from '../../lib/flags.js'
import {customerFlags} from '../../lib/flags-customer.js'
import {checkCreateFlags, customerBody} from '../../lib/workflows/customer/input.js'
import {renderCustomer} from '../../lib/output/customer.js'
import {completeCustomerInteractively} from '../../lib/workflows/customer/prompt.js'
import {canPrompt, requireFlags} from '../../lib/prompts.js'

export default class CustomersCreate extends BaseCommand<typeof CustomersCreate> {
  static override summary = 'Create an individual or business customer'
  static override description =
    'On a terminal, whatever the flags leave out is asked for: the type, then every field that type ' +
    'requires (a business: legal name, country, tax id, incorporation date; an individual: the full ' +
    'name), each checked as it is typed; the whole request is shown and confirmed before it is sent ' +
    '(declining sends nothing, exit 3). Off a terminal, missing fields are refused (exit 2).'
  static override examples = [
    '<%= config.bin %> customers create --type individual --full-name "Ada Lovelace" --email ada@example.com --currency USD',
    '<%= config.bin %> customers create --type business --legal-name "Acme LLC" --country US --tax-id 12-3456789 --incorporated-on 2020-01-15',
    '<%= config.bin %> customers create --data @customer.json --json',
  ]
  static override flags = {
    type: choiceFlag(['INDIVIDUAL', 'BUSINESS'], {description: 'customer type'}),
    'platform-id': Flags.string({description: "your platform's id for this customer (platformCustomerId)"}),
    region: Flags.string({description: 'ISO 3166-1 alpha-2 region'}),
    ...customerFlags,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const data = f.data ? readJsonObject(f.data) : {}
    let body = customerBody(f, data)
    if (canPrompt() && !f['dry-run']) body = (await completeCustomerInteractively(this.out, body)) ?? body
    else if (!body.customerType) requireFlags(['type'])
    const input = checkCreateFlags(body)
    const req = createCustomer(input)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const customer = await this.ctx.client.call(req)
    this.out.success(`Created ${customer.id}`)
    renderCustomer(this.out, customer)
    return customer
  }
}
