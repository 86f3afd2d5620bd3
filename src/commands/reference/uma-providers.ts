import {Flags} from '@oclif/core'
import {listUmaProviders} from '../../lib/api/reference.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'
import {umaProvidersQuery} from '../../lib/schemas/reference.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class ReferenceUmaProviders extends BaseCommand<typeof ReferenceUmaProviders> {
  static override summary = 'Counterparty providers reachable over UMA: domains, regions, currencies, allow-list status'
  static override examples = [
    '<%= config.bin %> reference uma-providers --country MX --currency MXN',
    '<%= config.bin %> reference uma-providers --allowed-only --all --json',
  ]
  static override flags = {
    country: Flags.string({description: 'only providers operating in this country (ISO 3166-1 alpha-2)'}),
    currency: Flags.string({description: 'only providers supporting this currency'}),
    'allowed-only': Flags.boolean({
      description: 'leave out providers not on your allow-list (hasBlockedProviders=false)',
    }),
    order: Flags.string({
      description: 'newest first (desc, the default) or oldest first (asc)',
      options: ['asc', 'desc'],
    }),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const query = checkWith(
      umaProvidersQuery,
      compact({
        countryCode: f.country?.toUpperCase(),
        currencyCode: f.currency?.toUpperCase(),
        hasBlockedProviders: f['allowed-only'] ? 'false' : undefined,
        sortOrder: f.order,
      }),
    )
    const list = await listPaged(this.ctx.client, listUmaProviders(query), {
      limit: f.limit,
      cursor: f.cursor,
      all: f.all,
    })
    await renderTable(
      this.out,
      ['NAME', 'DOMAIN', 'REGIONS', 'CURRENCIES', 'ALLOWED'],
      list.data.map((p) => [
        p.name,
        p.domain,
        p.supportedRegions?.join(' '),
        p.supportedCurrencies?.map((c) => c.code).join(' '),
        p.allowListStatus === undefined ? '' : p.allowListStatus ? 'yes' : 'no',
      ]),
    )
    if (list.hasMore && list.nextCursor) this.out.info(`More: --cursor ${list.nextCursor}`)
    return list
  }
}
