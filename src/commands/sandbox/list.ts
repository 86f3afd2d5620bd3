import {BaseCommand} from '../../lib/base-command.js'
import {listSandboxes} from '../../lib/api/sandboxes.js'
import {renderList, type Column} from '../../lib/output/table.js'
import {adminClientFrom, adminFlags} from '../../lib/sandbox-admin.js'
import type {SandboxInfo} from '../../lib/schemas/sandboxes.js'

const columns: Array<Column<SandboxInfo>> = [
  {key: 'name', header: 'NAME', get: (r) => r.name, priority: 1, noTruncate: true},
  {key: 'size', header: 'SIZE', get: (r) => `${(r.sizeBytes / 1024 / 1024).toFixed(1)} MB`, raw: (r) => r.sizeBytes},
  {key: 'last-used', header: 'LAST USED', get: (r) => r.lastUsedAt ?? '-', priority: 2},
  {key: 'open', header: 'OPEN', get: (r) => (r.open ? 'yes' : 'idle'), priority: 4},
  {key: 'url', header: 'URL', get: (r) => r.url, priority: 3, noTruncate: true},
]

export default class SandboxList extends BaseCommand<typeof SandboxList> {
  static override summary =
    'List the sandboxes of a team sandbox server (`serve --multi`): size, last use, open or idle'
  static override examples = ['<%= config.bin %> sandbox list', '<%= config.bin %> sandbox list --json']
  static override flags = {...adminFlags}

  async run() {
    const f = this.flags
    const client = adminClientFrom(f, this.ctx, this.config.version)
    try {
      const list = await client.call(listSandboxes())
      await renderList(this.out, columns, list, {format: 'table', wide: false})
      return list.data
    } finally {
      await client.close()
    }
  }
}
