import {Flags} from '@oclif/core'
import {listCustomers} from '../../lib/api/customers.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {listOutputFlags} from '../../lib/flags-output.js'
import {listView} from '../../lib/output/table.js'
import {customerColumns} from '../../lib/output/customer.js'
import {pagingFlags, choiceFlag} from '../../lib/flags.js'
import {renderCustomerList} from '../../lib/output/customer.js'
import {customerListQuery} from '../../lib/schemas/customer-query.js'
import {checkWith, compact} from '../../lib/validate.js'
import {showList} from '../../lib/output/list-stream.js'

export default class CustomersList extends BaseCommand<typeof CustomersList> {
  static override summary = 'List customers, with filters and paging'
  static override description =
    'Oldest first: the order the Service lists customers in. GET /customers takes no sort order, so ' +
    'there is no --order (transactions and cards list newest first and take --order asc|desc); narrow ' +
    'the range with --created-after/--created-before.'
  static override examples = [
    '<%= config.bin %> customers list --type business --all --json',
    '<%= config.bin %> customers list --created-after 2026-01-01T00:00:00Z',
  ]
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
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, customerColumns, {what: 'customers', hint: 'Create one with `svc customers create`.'})
    const query = checkWith(
      customerListQuery,
      compact({
        customerType: f.type?.toUpperCase(),
        platformCustomerId: f['platform-id'],
        region: f.region,
        currency: f.currency,
        createdAfter: f['created-after'],
        createdBefore: f['created-before'],
        updatedAfter: f['updated-after'],
        updatedBefore: f['updated-before'],
        isIncludingDeleted: f['include-deleted'] ? 'true' : undefined,
      }),
    )
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    return showList(
      this.out,
      view,
      customerColumns,
      page,
      (p) => listPaged(this.ctx.client, listCustomers(query), p),
      (list) => renderCustomerList(this.out, list, view),
    )
  }
}
