import {Flags} from '@oclif/core'
import {listExternalAccounts} from '../../../lib/api/accounts.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {externalAccountColumns} from '../../../lib/output/accounts.js'
import {InputError} from '../../../lib/errors.js'
import {idFlag, pagingFlags} from '../../../lib/flags.js'
import {renderExternalAccountList} from '../../../lib/output/accounts.js'
import {showList} from '../../../lib/output/list-stream.js'

export default class AccountsExternalList extends BaseCommand<typeof AccountsExternalList> {
  static override summary = 'List external accounts (beneficiaries and wallets)'
  static override examples = [
    '<%= config.bin %> accounts external list --customer Customer:…',
    '<%= config.bin %> accounts external list --currency MXN --all --json',
  ]
  static override flags = {
    customer: idFlag('Customer', {name: 'customerId'}),
    currency: Flags.string({description: 'currency code'}),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, externalAccountColumns, {
      what: 'external accounts',
      hint: 'Add one with `svc accounts external add`.',
    })
    if (f.currency !== undefined && !/^[A-Z]{3,5}$/.test(f.currency))
      throw new InputError([{field: 'currency', message: `"${f.currency}" is not a currency code`}])
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    return showList(
      this.out,
      view,
      externalAccountColumns,
      page,
      (p) => listPaged(this.ctx.client, listExternalAccounts({customerId: f.customer, currency: f.currency}), p),
      (list) => renderExternalAccountList(this.out, list, view),
    )
  }
}
