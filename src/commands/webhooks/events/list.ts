import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {eventColumns, type StoredEventSummary} from '../../../lib/output/webhook-event.js'
import {listView, renderList} from '../../../lib/output/table.js'
import {io} from '../../../lib/io.js'

export default class WebhooksEventsList extends BaseCommand<typeof WebhooksEventsList> {
  static override summary = 'List the events the sandbox has emitted, oldest first (GET /sandbox/events)'
  static override description =
    'Each event carries its delivery: state, attempts and, while pending, why it is held and when it is tried next. ' +
    'With --follow the list goes on: every new event that passes the filters is printed as it is recorded (one JSON document a line under --json), until Ctrl-C or --timeout.'
  static override examples = [
    '<%= config.bin %> webhooks events list',
    '<%= config.bin %> webhooks events list --type CUSTOMER.KYC_APPROVED --last 5 --json',
    '<%= config.bin %> webhooks events list --state pending',
    '<%= config.bin %> webhooks events list --object Customer:019a... --follow',
  ]
  static override flags = {
    type: Flags.string({description: 'only this event type (or a prefix such as CUSTOMER)'}),
    object: Flags.string({description: "only events about this object (the event data's id, e.g. Customer:...)"}),
    state: Flags.string({
      description: 'only events whose delivery is in this state (failed: out of attempts)',
      options: ['pending', 'failed', 'delivered'],
    }),
    last: Flags.integer({description: 'only the most recent N events', min: 1}),
    follow: Flags.boolean({description: 'keep printing new events as they are recorded, until Ctrl-C or --timeout'}),
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const bad = []
    if (f.type !== undefined && !/^[A-Z][A-Z0-9_.]*$/.test(f.type))
      bad.push(`--type "${f.type}" is not an event type (e.g. CUSTOMER.KYC_APPROVED)`)
    if (f.object !== undefined && (!f.object.trim() || f.object.length > 200))
      bad.push(`--object "${f.object}" is not an object id (e.g. Customer:...)`)
    if (bad.length) throw usageError(bad.join('; '))
    const view = listView(f, eventColumns, {
      what: 'events',
      hint: 'The sandbox records an event for each webhook it sends (`svc webhooks trigger` sends one).',
    })
    this.ctx.refuseInProduction('webhooks events list')
    const {followEvents, sandboxEvents} = await import('../../../lib/api/sandbox-events.js')
    const filter = {type: f.type, object: f.object, state: f.state as 'pending' | 'failed' | 'delivered' | undefined}
    const data = (await sandboxEvents(this.ctx.client, filter, {last: f.last})) as StoredEventSummary[]
    if (!f.follow) {
      await renderList(this.out, eventColumns, {data}, view)
      return {data}
    }
    // Following: a line per event, as it comes (a table could never be fitted to rows not seen yet).
    const line = (e: StoredEventSummary) =>
      this.out.write(
        (this.jsonEnabled()
          ? JSON.stringify(e)
          : [e.timestamp, e.id, e.type, e.data?.id ?? '', e.delivery?.state ?? ''].join('\t')) + '\n',
      )
    data.forEach(line)
    let stop = false
    const end = () => (stop = true)
    const offSignals = [io().onSignal('SIGINT', end), io().onSignal('SIGTERM', end)]
    const deadline = this.ctx.now() + this.ctx.remainingMs()
    await followEvents(this.ctx.client, filter, {
      seen: new Set(data.map((e) => e.id)),
      onEvent: (e) => line(e as StoredEventSummary),
      until: () => stop || this.ctx.now() >= deadline,
      sleep: (ms) => this.ctx.sleep(ms),
    })
    for (const off of offSignals) off()
    return undefined
  }
}
