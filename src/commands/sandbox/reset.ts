import {existsSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {SvcError, cancelled, confirmationRequired, usageError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {dryRunFlag, yesFlag} from '../../lib/flags.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {canPrompt, promptConfirm} from '../../lib/prompts.js'
import {runningPid} from '../../lib/sandbox-process.js'
import {removeStateFiles, sandboxStoreCall} from '../../lib/sandbox-store.js'
import {resetSandbox} from '../../lib/api/sandboxes.js'
import {adminClientFrom, adminFlags, checkSandboxName} from '../../lib/sandbox-admin.js'

export default class SandboxReset extends BaseCommand<typeof SandboxReset> {
  static override summary = 'Wipe the local sandbox state (customers, accounts, events); credentials and keys are kept'
  static override examples = [
    '<%= config.bin %> sandbox reset --yes',
    '<%= config.bin %> sandbox reset --name ci-42 --yes',
  ]
  static override flags = {
    'data-dir': Flags.string({description: "data dir to wipe (with --name: the local team server's data dir)"}),
    name: Flags.string({
      description: 'wipe only this sandbox of a team sandbox server (`serve --multi`), while it serves',
    }),
    'admin-secret-stdin': adminFlags['admin-secret-stdin'],
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    if (this.flags.name !== undefined) return this.resetOne(this.flags.name)
    if (this.flags['dry-run'])
      throw usageError(
        '--dry-run shows the request of a team sandbox reset (--name); the local reset sends none, it deletes files',
        'Drop --dry-run to wipe the local sandbox, or give --name <sandbox> to see the reset request.',
      )
    const dataDir = this.flags['data-dir'] ?? sandboxDataDir()
    const pid = runningPid(dataDir)
    if (pid)
      throw new SvcError({
        code: 'SANDBOX_RUNNING',
        exitCode: ExitCode.CONFLICT,
        message: `The sandbox is running (pid ${pid}); its state cannot be wiped under it`,
        hint: 'Run `svc sandbox stop` first.',
      })
    if (!this.flags.yes) {
      // Off a terminal a wipe without --yes is refused, never done silently.
      if (!canPrompt()) throw confirmationRequired(`wipe all local sandbox state in ${dataDir}`)
      if (!(await promptConfirm(`Wipe all local sandbox state in ${dataDir}?`))) throw cancelled()
    }
    removeStateFiles(dataDir)
    if (existsSync(dataDir))
      await sandboxStoreCall(
        () => import('../../emulator/entry.js'),
        (store) => store.freshDatabase(dataDir),
      )
    this.out.success(`Local sandbox state wiped (${dataDir})`)
    return {reset: true, dataDir}
  }

  /** One sandbox of a team server, through its admin route: the others keep serving, untouched. */
  private async resetOne(nameGiven: string) {
    const f = this.flags
    const name = checkSandboxName(nameGiven, '--name')
    const req = resetSandbox(name)
    if (f['dry-run'])
      return this.dryRun({
        dryRun: true as const,
        request: adminClientFrom(f, this.ctx, this.config.version, {dryRun: true}).describe(req),
      })
    // The server and its secret are found first: a missing secret is said before the confirmation.
    const client = adminClientFrom(f, this.ctx, this.config.version)
    try {
      await this.ctx.confirm(`Wipe all state of sandbox ${name}?`, {yes: f.yes, irreversible: true})
      await client.call(req)
    } finally {
      await client.close()
    }
    this.out.success(`Sandbox ${name} wiped; its credentials and webhook key are kept`)
    return {reset: true, name}
  }
}
