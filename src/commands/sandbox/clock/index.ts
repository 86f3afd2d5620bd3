import {getClock} from '../../../lib/api/clock.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {renderClock} from '../../../lib/output/clock.js'

export default class SandboxClock extends BaseCommand<typeof SandboxClock> {
  static override summary = "Show the local sandbox's clock: the time it reads, its mode, the jobs pending"
  static override description =
    'The sandbox has its own clock: real time (the default), frozen, or ticking at an offset after an advance. ' +
    'Every expiry, delay and timestamp in the sandbox reads it. Move it with `svc sandbox clock advance`.'
  static override examples = ['<%= config.bin %> sandbox clock', '<%= config.bin %> sandbox clock --json']

  async run() {
    this.ctx.refuseInProduction('sandbox clock')
    const clock = await this.ctx.client.call(getClock())
    renderClock(this.out, clock)
    return clock
  }
}
