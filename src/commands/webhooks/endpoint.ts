import {Args, Flags} from '@oclif/core'
import type {ApiRequest} from '../../lib/api/request.js'
import {BaseCommand} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'
import {dryRunFlag} from '../../lib/flags.js'
import {platformConfigPatch, platformConfigSchema} from '../../lib/schemas/config.js'
import {checkWith} from '../../lib/validate.js'

export default class WebhooksEndpoint extends BaseCommand<typeof WebhooksEndpoint> {
  static override summary = 'Show the webhook endpoint, or set it (PATCH /config webhookEndpoint); --clear removes it'
  static override examples = [
    '<%= config.bin %> webhooks endpoint',
    '<%= config.bin %> webhooks endpoint https://example.com/hooks/svc',
    '<%= config.bin %> webhooks endpoint --clear',
  ]
  static override args = {url: Args.string({description: 'new endpoint URL (http or https)', ignoreStdin: true})}
  static override flags = {
    clear: Flags.boolean({description: 'remove the endpoint (no more deliveries)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const {url} = this.args
    if (url && this.flags.clear) throw usageError('Give either a URL or --clear, not both')
    if (url) checkWith(platformConfigPatch, {webhookEndpoint: url})
    const change = url !== undefined || this.flags.clear
    const req: ApiRequest = change
      ? {method: 'PATCH', path: ['config'], body: {webhookEndpoint: url ?? ''}}
      : {method: 'GET', path: ['config']}
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    if (change) this.ctx.banner(url ? `set webhook endpoint to ${url}` : 'clear the webhook endpoint')
    const res = await this.ctx.client.request(req)
    const config = this.ctx.client.parse(platformConfigSchema, res.body, 'platform config')
    const endpoint = config.webhookEndpoint ?? null
    if (change) this.out.success(endpoint ? `Webhook endpoint set to ${endpoint}` : 'Webhook endpoint cleared')
    else if (!this.jsonEnabled()) this.out.print(endpoint ?? '(none)')
    return {webhookEndpoint: endpoint}
  }
}
