import {Flags} from '@oclif/core'
import type {ApiRequest} from '../../lib/api/request.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError} from '../../lib/errors.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {webhookReplayRequest} from '../../lib/schemas/webhooks.js'
import {replayNotDelivered} from '../../lib/webhook-register.js'

export default class WebhooksReplay extends BaseCommand<typeof WebhooksReplay> {
  static override summary = 'Re-deliver a stored event (identical body, signed) to the webhook endpoint or --url'
  static override examples = [
    '<%= config.bin %> webhooks replay Webhook:0b6f...',
    '<%= config.bin %> webhooks replay Webhook:0b6f... --url http://127.0.0.1:3000/webhooks --json',
  ]
  static override args = {eventId: idArg('Webhook', 'event id (Webhook:<id>), from `svc webhooks events list`')}
  static override flags = {
    url: Flags.string({description: 'deliver to this URL instead of the configured endpoint'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const url = this.flags.url
    const checked = webhookReplayRequest.safeParse(url === undefined ? {} : {url})
    if (!checked.success) throw new InputError(fieldErrors(checked.error))
    this.ctx.refuseInProduction('webhooks replay')
    const req: ApiRequest = {
      method: 'POST',
      path: ['sandbox', 'events', this.args.eventId, 'replay'],
      body: url ? {url} : {},
    }
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const res = await this.ctx.client.request(req).catch((e: unknown) => {
      throw replayNotDelivered(e)
    })
    const result = (res.body ?? {}) as {eventId?: string; type?: string; url?: string; response_status?: number}
    this.out.success(
      `${result.type ?? 'Event'} ${result.eventId ?? this.args.eventId} re-delivered to ${result.url ?? 'the endpoint'} (HTTP ${result.response_status ?? '?'})`,
    )
    return result
  }
}
