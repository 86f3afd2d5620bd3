import {Flags} from '@oclif/core'
import {listTokens} from '../../lib/api/tokens.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'

export default class TokensList extends BaseCommand<typeof TokensList> {
  static override summary = 'List API tokens (never their secrets)'
  static override examples = ['<%= config.bin %> tokens list', '<%= config.bin %> tokens list --name ci-read --json']
  static override flags = {name: Flags.string({description: 'only tokens with this name'}), ...pagingFlags}

  async run() {
    const f = this.flags
    const list = await listPaged(this.ctx.client, listTokens({name: f.name}), {
      limit: f.limit,
      cursor: f.cursor,
      all: f.all,
    })
    await renderTable(
      this.out,
      ['ID', 'NAME', 'CLIENT ID', 'PERMISSIONS', 'CREATED'],
      list.data.map((t) => [t.id, t.name, t.clientId, t.permissions.join(','), t.createdAt]),
      {what: 'API tokens', hint: 'Create one with `svc tokens create`.'},
    )
    return list
  }
}
