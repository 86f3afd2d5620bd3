import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../lib/base-command.js'
import {rawRequest} from '../lib/api/raw-request.js'
import {dryRunFlag, idempotencyKeyFlag} from '../lib/flags.js'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

export default class Api extends BaseCommand<typeof Api> {
  static override summary = 'Send a raw request to the API (escape hatch); prints the response body'
  static override examples = [
    '<%= config.bin %> api GET /customers --param limit=5',
    '<%= config.bin %> api GET /transactions --paginate --output ndjson',
    '<%= config.bin %> api POST /customers --data \'{"customerType":"INDIVIDUAL"}\'',
    '<%= config.bin %> api PATCH /config --data @config.json',
    '<%= config.bin %> api PATCH /internal-accounts/InternalAccount:0b6f... --data \'{"privateEnabled":true}\' --sign',
  ]
  static override args = {
    method: Args.string({
      description: 'HTTP method',
      required: true,
      options: [...METHODS, ...METHODS.map((m) => m.toLowerCase())],
    }),
    path: Args.string({description: 'path under the base URL, e.g. /customers/Customer:123', required: true}),
  }
  static override flags = {
    data: Flags.string({description: 'JSON body: inline, @file.json or - for stdin'}),
    param: Flags.string({
      description: 'query parameter key=value (repeatable; --query selects from the output)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    paginate: Flags.boolean({
      description:
        'GET every page by following nextCursor; prints one merged document (or NDJSON with --output ndjson)',
    }),
    output: Flags.string({
      description: 'json (default) or ndjson: with --paginate, one item per line as pages arrive',
      options: ['json', 'ndjson'],
    }),
    header: Flags.string({
      description: 'extra header "Name: value" (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
    sign: Flags.boolean({
      description:
        'run the wallet signed-retry dance (202 -> stamp -> retry, PROCESSING re-sends) with a stored session key',
    }),
    account: Flags.string({
      description: 'with --sign: the InternalAccount whose session signs (default: from the path or body)',
      dependsOn: ['sign'],
    }),
  }

  async run() {
    const f = this.flags
    const req = rawRequest(this.args, f)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    if (f.paginate) {
      const {paginate} = await import('../lib/workflows/api-paginate.js')
      const merged = await paginate(this.ctx, req, f.output === 'ndjson' ? (line) => this.out.write(line) : undefined)
      if (merged && !this.jsonEnabled()) this.out.printJson(merged)
      return merged
    }
    // The wallet crypto (noble, HPKE, the key store) loads only for --sign: an unsigned call skips it.
    const res = f.sign
      ? await (await import('../lib/workflows/wallet/raw.js')).signedRawRequest(this.ctx, req)
      : await this.ctx.client.request(req)
    this.out.info(this.out.dim(`HTTP ${res.status}`))
    if (!this.jsonEnabled()) this.out.printJson(res.body ?? null)
    return (res.body ?? {status: res.status}) as Record<string, unknown>
  }
}
