import {Errors} from '@oclif/core'
import {BaseCommand, withTimeout} from '../lib/base-command.js'
import {ExitCode} from '../lib/exit-codes.js'
import {runDoctor, type CheckStatus} from '../lib/doctor.js'
import {wrapLine} from '../lib/output/wrap.js'

export default class Doctor extends BaseCommand<typeof Doctor> {
  static override summary =
    'Check the setup: profile and secret, credentials, clock, proxy, TLS trust, local sandbox, key store, quorum key, Node'
  static override description =
    'One line per check: ✓ ok, ! worth knowing, ✗ a problem (with a hint). Exits 1 when any check is a ' +
    'problem, 0 otherwise. With --json: {ok, checks: [{name, status, detail, hint}]} for CI. Changes ' +
    'nothing, except that it removes the files a killed `svc sandbox snapshot save` left.'
  static override examples = [
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor --json | jq \'.checks[] | select(.status == "problem")\'',
  ]
  static override baseFlags = withTimeout('10s')

  async run() {
    // The database check loads the sandbox's store only when a local database exists.
    const report = await runDoctor(this.ctx, () => import('../emulator/entry.js'))
    const out = this.out
    const mark: Record<CheckStatus, string> = {
      ok: out.green('✓'),
      warn: out.yellow('!'),
      problem: out.red('✗'),
      skipped: out.dim('-'),
    }
    const width = Math.max(...report.checks.map((c) => c.name.length))
    // On a terminal, long details continue under the detail column, broken between words.
    const lines = (text: string, hang: number) => wrapLine(text, out.columns ?? 0, hang)
    for (const c of report.checks) {
      for (const line of lines(`${mark[c.status]} ${c.name.padEnd(width)}  ${c.detail}`, width + 4)) out.print(line)
      if (c.hint && c.status !== 'ok')
        for (const line of lines(`  ${' '.repeat(width)}  → ${c.hint}`, width + 6)) out.print(out.dim(line))
    }
    if (report.ok) return report
    // The report is the answer either way; the exit code tells CI that something needs fixing.
    if (this.jsonEnabled()) out.printJson(report)
    else out.info(`${report.checks.filter((c) => c.status === 'problem').length} problem(s) found.`)
    throw new Errors.ExitError(ExitCode.FAILED)
  }
}
