import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {renderTable} from '../../../lib/output/render.js'

interface StoredEventSummary {
  id: string
  type: string
  timestamp: string
  data?: {id?: string; status?: string; kycStatus?: string; kybStatus?: string}
}

export default class WebhooksEventsList extends BaseCommand<typeof WebhooksEventsList> {
  static override summary = 'List the events the sandbox has emitted, oldest first (GET /sandbox/events)'
  static override examples = ['<%= config.bin %> webhooks events list', '<%= config.bin %> webhooks events list --type CUSTOMER.KYC_APPROVED --last 5 --json']
  static override flags = {
    type: Flags.string({description: 'only this event type (or a prefix such as CUSTOMER)'}),
    last: Flags.integer({description: 'only the most recent N events', min: 1}),
  }

  async run() {
    const f = this.flags
    if (f.type !== undefined && !/^[A-Z][A-Z0-9_.]*$/.test(f.type)) throw usageError(`--type "${f.type}" is not an event type (e.g. CUSTOMER.KYC_APPROVED)`)
    this.ctx.refuseInProduction('webhooks events list')
    const {sandboxEvents} = await import('../../../lib/api/cards.js')
    const data = (await sandboxEvents(this.ctx.client, f.type, {last: f.last})) as StoredEventSummary[]
    if (!this.jsonEnabled()) {
      if (!data.length) this.out.info('No events.')
      else await renderTable(this.out, ['time', 'type', 'object', 'state', 'event id'], data.map((e) => [e.timestamp, e.type, e.data?.id, e.data?.status ?? e.data?.kycStatus ?? e.data?.kybStatus, e.id]))
    }
    return {data}
  }
}
