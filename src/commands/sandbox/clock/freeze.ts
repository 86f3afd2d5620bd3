import {setClock} from '../../../lib/api/clock.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {renderClock} from '../../../lib/output/clock.js'

export default class SandboxClockFreeze extends BaseCommand<typeof SandboxClockFreeze> {
  static override summary = 'Stop the sandbox clock where it reads now (only `clock advance` moves it then)'
  static override examples = ['<%= config.bin %> sandbox clock freeze']
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    this.ctx.refuseInProduction('sandbox clock freeze')
    const req = setClock('freeze')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const clock = await this.ctx.client.call(req)
    this.out.success(`Sandbox clock frozen at ${clock.now}`)
    renderClock(this.out, clock)
    return clock
  }
}
