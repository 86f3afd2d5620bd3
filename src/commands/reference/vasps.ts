import {listVasps} from '../../lib/api/reference.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'

export default class ReferenceVasps extends BaseCommand<typeof ReferenceVasps> {
  static override summary = 'Custodial platforms (VASPs) to name as vaspName when a wallet is hosted by an exchange'
  static override examples = [
    '<%= config.bin %> reference vasps --all',
    '<%= config.bin %> reference vasps --limit 5 --json',
  ]
  static override flags = {...pagingFlags}

  async run() {
    const f = this.flags
    const list = await listPaged(this.ctx.client, listVasps(), {limit: f.limit, cursor: f.cursor, all: f.all})
    await renderTable(
      this.out,
      ['VASP NAME', 'URL'],
      list.data.map((v) => [v.vaspName, v.url]),
    )
    if (list.hasMore && list.nextCursor) this.out.info(`More: --cursor ${list.nextCursor}`)
    return list
  }
}
