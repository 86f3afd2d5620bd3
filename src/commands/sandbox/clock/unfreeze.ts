import {setClock} from '../../../lib/api/clock.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {renderClock} from '../../../lib/output/clock.js'

export default class SandboxClockUnfreeze extends BaseCommand<typeof SandboxClockUnfreeze> {
  static override summary = 'Let the sandbox clock tick again from where it stands (`clock reset` returns to real time)'
  static override examples = ['<%= config.bin %> sandbox clock unfreeze']
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    this.ctx.refuseInProduction('sandbox clock unfreeze')
    const req = setClock('unfreeze')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const clock = await this.ctx.client.call(req)
    this.out.success(`Sandbox clock ticking from ${clock.now}`)
    renderClock(this.out, clock)
    return clock
  }
}
