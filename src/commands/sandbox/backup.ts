import {resolve} from 'node:path'
import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {sandboxStoreCall} from '../../lib/sandbox-store.js'

export default class SandboxBackup extends BaseCommand<typeof SandboxBackup> {
  static override summary = 'Copy the local sandbox state to a file, consistently, even while it is serving'
  static override description = 'The copy is one committed state of the SQLite database (VACUUM INTO), checked after it is written. Restore it with `svc sandbox restore <file>`.'
  static override examples = ['<%= config.bin %> sandbox backup ./before-migration.db']
  static override args = {file: Args.string({description: 'where to write the copy (replaced if it exists)', required: true})}
  static override flags = {'data-dir': Flags.string({description: 'data dir of the sandbox to copy (default: the user data dir)'})}

  async run() {
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const file = resolve(this.args.file)
    const {tables} = await sandboxStoreCall(() => import('../../emulator/entry.js'), (store) => store.backupDatabase(dataDir, file))
    this.out.success(`Sandbox state copied to ${file} (${tables} tables, integrity checked)`)
    return {file, dataDir, tables}
  }
}
