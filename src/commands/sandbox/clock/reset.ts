import {Flags} from '@oclif/core'
import {setClock} from '../../../lib/api/clock.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {renderClock} from '../../../lib/output/clock.js'

export default class SandboxClockReset extends BaseCommand<typeof SandboxClockReset> {
  static override summary = "Put the sandbox clock back on the machine's time"
  static override description =
    "Refused (exit 6, CLOCK_JOBS_PENDING) while jobs scheduled at a virtual time later than the machine's are " +
    'pending, since they would then wait out real time; --force resets anyway.'
  static override examples = ['<%= config.bin %> sandbox clock reset', '<%= config.bin %> sandbox clock reset --force']
  static override flags = {
    force: Flags.boolean({description: 'reset even while jobs from a later virtual time are pending'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    this.ctx.refuseInProduction('sandbox clock reset')
    const req = setClock('reset', this.flags.force ? {force: true} : {})
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const clock = await this.ctx.client.call(req)
    this.out.success(`Sandbox clock back on real time: ${clock.now}`)
    renderClock(this.out, clock)
    return clock
  }
}
