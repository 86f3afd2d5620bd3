import {Flags} from '@oclif/core'
import {listProviderAccounts} from '../../../lib/api/stablecoins.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {pagingFlags} from '../../../lib/flags.js'
import {renderTable} from '../../../lib/output/render.js'
import {PROVIDER_ACCOUNT_STATUSES, STABLECOIN_PROVIDERS} from '../../../lib/schemas/stablecoins.js'

export default class ProviderAccountsList extends BaseCommand<typeof ProviderAccountsList> {
  static override summary = 'List stablecoin provider account links'
  static override examples = ['<%= config.bin %> stablecoins provider-accounts list --status ACTIVE']
  static override flags = {
    provider: Flags.string({description: 'only this provider', options: [...STABLECOIN_PROVIDERS]}),
    status: Flags.string({description: 'only links in this status', options: [...PROVIDER_ACCOUNT_STATUSES]}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const list = await listPaged(this.ctx.client, listProviderAccounts({provider: f.provider, status: f.status}), {
      limit: f.limit,
      cursor: f.cursor,
      all: f.all,
    })
    await renderTable(
      this.out,
      ['ID', 'PROVIDER', 'PROVIDER ACCOUNT', 'STATUS', 'CREATED'],
      list.data.map((a) => [a.id, a.provider, a.providerAccountId, a.status, a.createdAt]),
      {what: 'provider accounts', hint: 'Link one with `svc stablecoins provider-accounts link`.'},
    )
    return list
  }
}
