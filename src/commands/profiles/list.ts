import {BaseCommand} from '../../lib/base-command.js'
import {listProfiles} from '../../lib/login.js'
import {renderTable} from '../../lib/output/render.js'

export default class ProfilesList extends BaseCommand<typeof ProfilesList> {
  static override summary = 'List profiles: environment, base URL, token id, and which one is active'
  static override examples = ['<%= config.bin %> profiles list', '<%= config.bin %> profiles list --json']

  async run() {
    const rows = listProfiles(this.ctx.env)
    await renderTable(
      this.out,
      ['', 'NAME', 'ENVIRONMENT', 'BASE URL', 'TOKEN ID', 'SECRET'],
      rows.map((r) => [r.active ? '*' : '', r.name, r.environment, r.baseUrl, r.tokenId ?? '-', r.secret]),
    )
    return rows
  }
}
