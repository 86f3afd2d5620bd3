import {Args, Flags} from '@oclif/core'
import {advanceClock} from '../../../lib/api/clock.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {clockAdvanceInput} from '../../../lib/clock-input.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {renderAdvance} from '../../../lib/output/clock.js'

export default class SandboxClockAdvance extends BaseCommand<typeof SandboxClockAdvance> {
  static override summary = 'Move the sandbox clock on, running every job due on the way, in order'
  static override description =
    'Each job due in the window (a KYC decision, a slow payment, a retry of a failed webhook ...) runs at its own ' +
    'virtual time, and its webhooks go out before the next runs. The clock never moves back. ' +
    'Prints the jobs run and the events emitted.'
  static override examples = [
    '<%= config.bin %> sandbox clock advance 6m',
    '<%= config.bin %> sandbox clock advance 1h30m --json',
    '<%= config.bin %> sandbox clock advance --to 2026-12-01T00:00:00Z',
  ]
  // A long advance runs many jobs and webhook deliveries (each delivery may take up to 5 s).
  static override baseFlags = withTimeout('5m')
  static override args = {
    span: Args.string({description: 'how far to move on: 30s, 6m, 2h, 1d, 1h30m', required: false, ignoreStdin: true}),
  }
  static override flags = {
    to: Flags.string({description: 'the instant to move to, with a zone (2026-12-01T00:00:00Z)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const body = clockAdvanceInput(this.args.span, this.flags.to)
    this.ctx.refuseInProduction('sandbox clock advance')
    const req = advanceClock(body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const result = await this.ctx.client.call(req)
    renderAdvance(this.out, result)
    return result
  }
}
