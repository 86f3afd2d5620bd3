import {Flags} from '@oclif/core'
import {listStablecoins} from '../../lib/api/stablecoins.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'
import {ISSUANCE_STATUSES, OPERATIONS_STATUSES, STABLECOIN_PROVIDERS} from '../../lib/schemas/stablecoin-response.js'

export default class StablecoinsList extends BaseCommand<typeof StablecoinsList> {
  static override summary = 'List registered stablecoins'
  static override examples = ['<%= config.bin %> stablecoins list --operations-status ENABLED --json']
  static override flags = {
    'issuance-status': Flags.string({
      description: 'only coins in this provider issuance status',
      options: [...ISSUANCE_STATUSES],
    }),
    'operations-status': Flags.string({
      description: 'only coins in this Service enablement status',
      options: [...OPERATIONS_STATUSES],
    }),
    provider: Flags.string({description: 'only this provider', options: [...STABLECOIN_PROVIDERS]}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const list = await listPaged(
      this.ctx.client,
      listStablecoins({
        issuanceStatus: f['issuance-status'],
        gridOperationsStatus: f['operations-status'],
        provider: f.provider,
      }),
      {limit: f.limit, cursor: f.cursor, all: f.all},
    )
    await renderTable(
      this.out,
      ['ID', 'SYMBOL', 'ISSUANCE', 'OPERATIONS', 'CREATED'],
      list.data.map((c) => [c.id, c.symbol, c.issuanceStatus, c.gridOperationsStatus, c.createdAt]),
      {what: 'stablecoins', hint: 'Create one with `svc stablecoins create`.'},
    )
    return list
  }
}
