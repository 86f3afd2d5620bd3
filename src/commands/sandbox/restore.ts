import {resolve} from 'node:path'
import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {SvcError, cancelled} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {yesFlag} from '../../lib/flags.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {canPrompt, promptConfirm} from '../../lib/prompts.js'
import {runningPid} from '../../lib/sandbox-process.js'
import {renderTakenFrom, sandboxStoreCall} from '../../lib/sandbox-store.js'

/** The sandbox's store loads only when a restore runs. */
const loadStore = () => import('../../emulator/entry.js')

export default class SandboxRestore extends BaseCommand<typeof SandboxRestore> {
  static override summary = 'Replace the local sandbox state with a backup, after checking the backup'
  static override description =
    'The file is checked (SQLite integrity check, schema version, and every table, index and trigger against the declared schema) before anything is replaced; ' +
    'its documents are then imported into a database this svc makes. The state it replaces is kept beside it as sandbox.db.before-restore. The sandbox must be stopped.'
  static override examples = ['<%= config.bin %> sandbox restore ./before-migration.db --yes']
  static override args = {file: Args.string({description: 'a file written by `svc sandbox backup`', required: true})}
  static override flags = {
    'data-dir': Flags.string({description: 'data dir to restore into (default: the user data dir)'}),
    yes: yesFlag,
  }

  /** Someone else's snapshot: its API and agent tokens are left behind (`snapshot load`); one's own backup keeps them. */
  protected readonly handOver: boolean = false

  async run() {
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const file = resolve(this.args.file)
    const pid = runningPid(dataDir)
    if (pid)
      throw new SvcError({
        code: 'SANDBOX_RUNNING',
        exitCode: ExitCode.CONFLICT,
        message: `The sandbox is running (pid ${pid}); its state cannot be replaced under it`,
        hint: 'Run `svc sandbox stop` first.',
      })
    const {tables} = await sandboxStoreCall(loadStore, (store) => store.checkSnapshot(file))
    if (
      !this.flags.yes &&
      canPrompt() &&
      !(await promptConfirm(`Replace the sandbox state in ${dataDir} with ${file}?`))
    )
      throw cancelled()
    const {kept, ...restored} = await sandboxStoreCall(loadStore, (store) =>
      store.restoreDatabase(dataDir, file, {handOver: this.handOver}),
    )
    this.out.success(
      `Sandbox state ${this.handOver ? 'loaded' : 'restored'} from ${file} (${tables} tables)${kept ? `; the previous state is kept as ${kept}` : ''}`,
    )
    renderTakenFrom(this.out, restored)
    return {file, dataDir, tables, ...(kept ? {previous: kept} : {}), ...restored}
  }
}
