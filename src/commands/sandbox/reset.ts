import {existsSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {SvcError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {yesFlag} from '../../lib/flags.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {canPrompt, promptConfirm} from '../../lib/prompts.js'
import {cancelled} from '../../lib/errors.js'
import {runningPid} from '../../lib/sandbox-process.js'
import {sandboxStoreCall} from '../../lib/sandbox-store.js'

export default class SandboxReset extends BaseCommand<typeof SandboxReset> {
  static override summary = 'Wipe the local sandbox state (customers, accounts, events); credentials and keys are kept'
  static override examples = ['<%= config.bin %> sandbox reset --yes']
  static override flags = {'data-dir': Flags.string({description: 'data dir to wipe'}), yes: yesFlag}

  async run() {
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const pid = runningPid(dataDir)
    if (pid)
      throw new SvcError({
        code: 'SANDBOX_RUNNING',
        exitCode: ExitCode.CONFLICT,
        message: `The sandbox is running (pid ${pid}); its state cannot be wiped under it`,
        hint: 'Run `svc sandbox stop` first.',
      })
    if (!this.flags.yes && canPrompt() && !(await promptConfirm(`Wipe all local sandbox state in ${dataDir}?`)))
      throw cancelled()
    for (const name of [
      'sandbox.db',
      'sandbox.db-wal',
      'sandbox.db-shm',
      'journal.ndjson',
      'journal.ndjson.compact',
      'emulator.log',
      'sandbox.out',
    ])
      rmSync(join(dataDir, name), {force: true})
    if (existsSync(dataDir))
      await sandboxStoreCall(
        () => import('../../emulator/entry.js'),
        (store) => store.freshDatabase(dataDir),
      )
    this.out.success(`Local sandbox state wiped (${dataDir})`)
    return {reset: true, dataDir}
  }
}
