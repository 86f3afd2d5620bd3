import {setClock} from '../../../lib/api/clock.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {renderClock} from '../../../lib/output/clock.js'

export default class SandboxClockUnfreeze extends BaseCommand<typeof SandboxClockUnfreeze> {
  static override summary = 'Let the sandbox clock tick again from where it stands (`clock reset` returns to real time)'
  static override examples = ['<%= config.bin %> sandbox clock unfreeze']

  async run() {
    this.ctx.refuseInProduction('sandbox clock unfreeze')
    const clock = await this.ctx.client.call(setClock('unfreeze'))
    this.out.success(`Sandbox clock ticking from ${clock.now}`)
    renderClock(this.out, clock)
    return clock
  }
}
