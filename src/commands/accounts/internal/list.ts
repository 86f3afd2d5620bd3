import {Flags} from '@oclif/core'
import {listInternalAccounts} from '../../../lib/api/accounts.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {internalAccountColumns} from '../../../lib/output/accounts.js'
import {InputError} from '../../../lib/errors.js'
import {idFlag, pagingFlags} from '../../../lib/flags.js'
import {renderInternalAccount, renderInternalAccountList} from '../../../lib/output/accounts.js'
import {showList} from '../../../lib/output/list-stream.js'
import type {PageOptions} from '../../../lib/api/paging.js'

export default class AccountsInternalList extends BaseCommand<typeof AccountsInternalList> {
  static override summary = 'List internal accounts: balances in real units (--details for funding instructions)'
  static override examples = [
    '<%= config.bin %> accounts internal list --customer Customer:…',
    '<%= config.bin %> accounts internal list --customer Customer:… --currency USD --details',
  ]
  static override flags = {
    customer: idFlag('Customer', {name: 'customerId'}),
    currency: Flags.string({description: 'currency code (USD, MXN, USDC ...)'}),
    details: Flags.boolean({description: 'show each account with its funding instructions'}),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, internalAccountColumns, {
      what: 'internal accounts',
      hint: 'Internal accounts are made by the Service with the customer, one per currency.',
    })
    if (f.currency !== undefined && !/^[A-Z]{3,5}$/.test(f.currency))
      throw new InputError([
        {field: 'currency', message: `"${f.currency}" is not a currency code (USD, MXN, USDC ...)`},
      ])
    const load = (p: PageOptions) =>
      listPaged(this.ctx.client, listInternalAccounts({customerId: f.customer, currency: f.currency}), p)
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    if (!f.details)
      return showList(this.out, view, internalAccountColumns, page, load, (list) =>
        renderInternalAccountList(this.out, list, view),
      )
    const list = await load(page)
    for (const a of list.data) {
      renderInternalAccount(this.out, a)
      this.out.print()
    }
    return list
  }
}
