import {Flags} from '@oclif/core'
import {createToken} from '../../lib/api/tokens.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {deliverSecret, planSecretDestination} from '../../lib/workflows/secret-once.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {TOKEN_PERMISSIONS, tokenCreateRequest} from '../../lib/schemas/tokens.js'
import {Secret} from '../../lib/secret.js'
import {checkWith} from '../../lib/validate.js'

export default class TokensCreate extends BaseCommand<typeof TokensCreate> {
  static override summary =
    'Create an API token; its client secret is shown once (terminal, a 0600 file, or stdout with --show-secret)'
  static override description =
    'Use the new token with `svc login --token-id <clientId>`. The secret never appears in --json output ' +
    'unless --show-secret is given, and then only on stdout.'
  static override examples = [
    '<%= config.bin %> tokens create --name ci-read --permission VIEW --out ci-read.secret',
    '<%= config.bin %> tokens create --name payouts --permission TRANSACT --permission VIEW --show-secret --json | jq -r .clientSecret',
  ]
  static override flags = {
    name: Flags.string({description: 'name of the token', required: true}),
    permission: Flags.string({
      description: 'permission to grant (repeat for several)',
      options: [...TOKEN_PERMISSIONS],
      multiple: true,
      multipleNonGreedy: true,
      required: true,
    }),
    out: Flags.string({description: 'write the client secret to this new file (mode 0600)'}),
    force: Flags.boolean({description: 'with --out: overwrite an existing file', dependsOn: ['out']}),
    'show-secret': Flags.boolean({
      description: 'print the client secret on stdout (the only way it enters --json output)',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = checkWith(tokenCreateRequest, {name: f.name, permissions: f.permission})
    const req = createToken(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const dest = planSecretDestination({
      out: f.out,
      force: f.force,
      showSecret: f['show-secret'],
      json: this.jsonEnabled(),
      stdoutIsTTY: this.out.stdoutIsTTY,
      what: 'client secret',
    })
    this.ctx.banner(`create API token ${body.name}`)
    const {clientSecret, ...token} = await this.ctx.client.call(req)
    const secret = new Secret(clientSecret ?? '')
    this.out.success(`Created ${token.id} (${token.permissions.join(', ')})`)
    renderKeyValue(this.out, [
      ['id', token.id],
      ['name', token.name],
      ['clientId', token.clientId],
      ['permissions', token.permissions.join(', ')],
    ])
    const shown = deliverSecret(dest, secret, this.out, 'client secret')
    // The base URL this token was created on: without it, login would go to the default (4010) sandbox.
    const use = `svc login --profile <name> --base-url ${this.ctx.profile.baseUrl} --token-id ${token.clientId} --secret-stdin`
    this.out.info(this.out.dim(`Use it: ${use}`))
    return {...token, ...shown}
  }
}
