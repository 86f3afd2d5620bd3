import {Args, Flags} from '@oclif/core'
import {checkBackupTarget} from '../../lib/backup-target.js'
import {BaseCommand} from '../../lib/base-command.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {sandboxStoreCall} from '../../lib/sandbox-store.js'

export default class SandboxBackup extends BaseCommand<typeof SandboxBackup> {
  static override summary = 'Copy the local sandbox state to a file, consistently, even while it is serving'
  static override description =
    'The copy is one committed state of the SQLite database (VACUUM INTO), checked after it is written. ' +
    'Restore it with `svc sandbox restore <file>`.'
  static override examples = ['<%= config.bin %> sandbox backup ./before-migration.db']
  static override args = {
    file: Args.string({
      description: 'where to write the copy (a new file outside the data dir, written 0600)',
      required: true,
    }),
  }
  static override flags = {
    'data-dir': Flags.string({description: 'data dir of the sandbox to copy (default: the user data dir)'}),
    force: Flags.boolean({description: 'replace the file if it exists'}),
  }

  async run() {
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const file = checkBackupTarget(dataDir, this.args.file, this.flags.force)
    const {tables} = await sandboxStoreCall(
      () => import('../../emulator/entry.js'),
      (store) => store.backupDatabase(dataDir, file, {force: this.flags.force}),
    )
    this.out.success(`Sandbox state copied to ${file} (${tables} tables, integrity checked)`)
    return {file, dataDir, tables}
  }
}
