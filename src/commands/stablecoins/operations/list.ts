import {Flags} from '@oclif/core'
import {listOperations} from '../../../lib/api/stablecoins.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg, pagingFlags} from '../../../lib/flags.js'
import {renderOperationTable} from '../../../lib/output/stablecoin.js'
import {OPERATION_TYPES} from '../../../lib/schemas/stablecoins.js'

export default class OperationsList extends BaseCommand<typeof OperationsList> {
  static override summary = 'List the mint and burn operations of a stablecoin, most recent first'
  static override examples = ['<%= config.bin %> stablecoins operations list Stablecoin:… --type MINT']
  static override args = {stablecoinId: idArg('Stablecoin')}
  static override flags = {
    type: Flags.string({description: 'only mints or only burns', options: [...OPERATION_TYPES]}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const list = await listPaged(this.ctx.client, listOperations(this.args.stablecoinId, {operationType: f.type}), {
      limit: f.limit,
      cursor: f.cursor,
      all: f.all,
    })
    await renderOperationTable(this.out, list.data)
    return list
  }
}
