import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'

export default class WebhooksTrigger extends BaseCommand<typeof WebhooksTrigger> {
  static override summary = 'Send a signed TEST event to the webhook endpoint now and show what it answered'
  static override examples = ['<%= config.bin %> webhooks trigger', '<%= config.bin %> webhooks trigger --url http://127.0.0.1:4020/webhooks --json']
  static override flags = {
    url: Flags.string({description: 'deliver to this URL instead of the configured endpoint (local sandbox only)'}),
  }

  async run() {
    this.ctx.refuseInProduction('webhooks trigger')
    // The operation takes no body; only the local sandbox's --url extension sends one.
    const body = this.flags.url ? {url: this.flags.url} : undefined
    const res = await this.ctx.client.request({method: 'POST', path: ['sandbox', 'webhooks', 'test'], body})
    const result = (res.body ?? {}) as {url?: string; response_status?: number}
    this.out.success(`TEST event delivered to ${result.url ?? 'the endpoint'} (HTTP ${result.response_status ?? '?'})`)
    return result
  }
}
