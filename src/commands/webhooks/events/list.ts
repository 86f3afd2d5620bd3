import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {eventColumns, type StoredEventSummary} from '../../../lib/output/webhook-event.js'
import {listView, renderList} from '../../../lib/output/table.js'

export default class WebhooksEventsList extends BaseCommand<typeof WebhooksEventsList> {
  static override summary = 'List the events the sandbox has emitted, oldest first (GET /sandbox/events)'
  static override examples = [
    '<%= config.bin %> webhooks events list',
    '<%= config.bin %> webhooks events list --type CUSTOMER.KYC_APPROVED --last 5 --json',
  ]
  static override flags = {
    type: Flags.string({description: 'only this event type (or a prefix such as CUSTOMER)'}),
    last: Flags.integer({description: 'only the most recent N events', min: 1}),
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    if (f.type !== undefined && !/^[A-Z][A-Z0-9_.]*$/.test(f.type))
      throw usageError(`--type "${f.type}" is not an event type (e.g. CUSTOMER.KYC_APPROVED)`)
    const view = listView(f, eventColumns, {
      what: 'events',
      hint: 'The sandbox records an event for each webhook it sends (`svc webhooks trigger` sends one).',
    })
    this.ctx.refuseInProduction('webhooks events list')
    const {sandboxEvents} = await import('../../../lib/api/sandbox-events.js')
    const data = (await sandboxEvents(this.ctx.client, f.type, {last: f.last})) as StoredEventSummary[]
    await renderList(this.out, eventColumns, {data}, view)
    return {data}
  }
}
