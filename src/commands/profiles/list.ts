import {BaseCommand} from '../../lib/base-command.js'
import {listProfiles} from '../../lib/login.js'
import {profileColumns} from '../../lib/output/profile.js'
import {renderList} from '../../lib/output/table.js'

export default class ProfilesList extends BaseCommand<typeof ProfilesList> {
  static override summary = 'List profiles: environment, base URL, token id, and which one is active'
  static override examples = ['<%= config.bin %> profiles list', '<%= config.bin %> profiles list --json']

  async run() {
    const rows = listProfiles(this.ctx.env)
    await renderList(this.out, profileColumns, {data: rows}, {format: 'table', wide: false})
    return rows
  }
}
