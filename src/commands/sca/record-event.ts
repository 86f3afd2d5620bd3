import {Flags} from '@oclif/core'
import {recordEvent} from '../../lib/api/sca.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {customerArg} from '../../lib/workflows/sca/flags.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {SECURITY_EVENTS} from '../../lib/schemas/sca.js'

export default class ScaRecordEvent extends BaseCommand<typeof ScaRecordEvent> {
  static override summary =
    "Record a security event for a customer (a failed sign-in counts towards the lock); shows the customer's lock state"
  static override examples = ['<%= config.bin %> sca record-event Customer:… --event FAILED_LOGIN_ATTEMPT --json']
  static override args = customerArg
  static override flags = {
    event: Flags.string({description: 'eventType', options: [...SECURITY_EVENTS], required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const req = recordEvent(this.args.customerId, this.flags.event)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const state = await this.ctx.client.call(req)
    renderKeyValue(this.out, [
      ['event', state.eventType],
      ['failedAttempts', state.failedAttempts],
      ['lockedUntil', state.lockedUntil ?? 'not locked'],
      ['suspended', state.suspended],
    ])
    return state
  }
}
