import {Flags} from '@oclif/core'
import {listCustomers} from '../../lib/api/customers.js'
import {BaseCommand} from '../../lib/base-command.js'
import {pagingFlags, choiceFlag} from '../../lib/flags.js'
import {renderCustomerList} from '../../lib/output/customer.js'
import {customerListQuery} from '../../lib/schemas/customer.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class CustomersList extends BaseCommand<typeof CustomersList> {
  static override summary = 'List customers, with filters and paging'
  static override examples = ['<%= config.bin %> customers list --type business --all --json', '<%= config.bin %> customers list --created-after 2026-01-01T00:00:00Z']
  static override flags = {
    type: choiceFlag(['INDIVIDUAL', 'BUSINESS'], {description: 'only customers of this type'}),
    'platform-id': Flags.string({description: 'platformCustomerId'}),
    region: Flags.string({description: 'only customers of this region (ISO 3166-1 alpha-2)'}),
    currency: Flags.string({description: 'only customers that transact in this currency'}),
    'created-after': Flags.string({description: 'created at or after this ISO date-time'}),
    'created-before': Flags.string({description: 'created at or before this ISO date-time'}),
    'updated-after': Flags.string({description: 'updated at or after this ISO date-time'}),
    'updated-before': Flags.string({description: 'updated at or before this ISO date-time'}),
    'include-deleted': Flags.boolean({description: 'also list deleted customers'}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const query = checkWith(customerListQuery, compact({
        customerType: f.type?.toUpperCase(),
        platformCustomerId: f['platform-id'],
        region: f.region,
        currency: f.currency,
        createdAfter: f['created-after'],
        createdBefore: f['created-before'],
        updatedAfter: f['updated-after'],
        updatedBefore: f['updated-before'],
        isIncludingDeleted: f['include-deleted'] ? 'true' : undefined,
      }))
    const list = await listCustomers(this.ctx.client, query, {limit: f.limit, cursor: f.cursor, all: f.all})
    await renderCustomerList(this.out, list)
    return list
  }
}
