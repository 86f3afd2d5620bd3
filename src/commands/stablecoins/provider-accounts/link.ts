import {Flags} from '@oclif/core'
import {linkProviderAccount} from '../../../lib/api/stablecoins.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {dryRunFlag, idempotencyKeyFlag} from '../../../lib/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'
import {canPrompt, promptSecret} from '../../../lib/prompts.js'
import {STABLECOIN_PROVIDERS, providerAccountLinkRequest} from '../../../lib/schemas/stablecoins.js'
import {checkWith, compact} from '../../../lib/validate.js'
import {readStdinText} from '../../../lib/io.js'

export default class ProviderAccountsLink extends BaseCommand<typeof ProviderAccountsLink> {
  static override summary =
    'Link a stablecoin provider account (its API secret from stdin, SVC_PROVIDER_CLIENT_SECRET or a hidden prompt)'
  static override examples = [
    'printf %s "$BRALE_SECRET" | <%= config.bin %> stablecoins provider-accounts link --api-client-id provider_client_123 --secret-stdin',
  ]
  static override flags = {
    provider: Flags.string({description: 'stablecoin provider', options: [...STABLECOIN_PROVIDERS], default: 'BRALE'}),
    'api-client-id': Flags.string({description: 'provider API client id', required: true}),
    'provider-account-id': Flags.string({description: 'provider account id (when the credentials see several)'}),
    'secret-stdin': Flags.boolean({description: 'read the provider API client secret from stdin'}),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    let secret: string | undefined
    if (f['secret-stdin']) secret = readStdinText().trim()
    else if (this.ctx.env.SVC_PROVIDER_CLIENT_SECRET) secret = this.ctx.env.SVC_PROVIDER_CLIENT_SECRET
    else if (!f['dry-run'] && canPrompt(this.ctx.env))
      secret = (await promptSecret('Provider API client secret')).trim()
    else if (!f['dry-run'])
      throw usageError(
        'No provider API client secret given',
        'Pipe it with --secret-stdin, set SVC_PROVIDER_CLIENT_SECRET, or run on a terminal to be prompted.',
      )
    const body = checkWith(
      providerAccountLinkRequest,
      compact({
        provider: f.provider,
        apiClientId: f['api-client-id'],
        apiClientSecret: secret ?? '[not read in a dry run]',
        providerAccountId: f['provider-account-id'],
      }),
    )
    const req = linkProviderAccount(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const account = await this.ctx.client.call(req)
    this.out.success(`Linked ${account.id} (${account.provider} ${account.providerAccountId})`)
    renderKeyValue(this.out, [
      ['id', account.id],
      ['provider', account.provider],
      ['providerAccountId', account.providerAccountId],
      ['environment', account.providerEnvironment],
      ['status', account.status],
    ])
    return account
  }
}
