import {Flags} from '@oclif/core'
import {sandboxSetProviderAccountStatus} from '../../../lib/api/stablecoins.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../../lib/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'
import {PROVIDER_ACCOUNT_STATUSES} from '../../../lib/schemas/stablecoins.js'

export default class SandboxStablecoinsProviderAccount extends BaseCommand<typeof SandboxStablecoinsProviderAccount> {
  static override summary =
    "Sandbox: play the provider and set a provider account link's status (ACTIVE, INVALID, REVOKED)"
  static override examples = [
    '<%= config.bin %> sandbox stablecoins provider-account StablecoinProviderAccount:… --status REVOKED',
  ]
  static override args = {id: idArg('StablecoinProviderAccount')}
  static override flags = {
    status: Flags.string({
      description: "the link's new status",
      options: [...PROVIDER_ACCOUNT_STATUSES],
      required: true,
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.id
    this.ctx.refuseInProduction('sandbox stablecoins provider-account')
    const req = sandboxSetProviderAccountStatus(id, this.flags.status)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const a = await this.ctx.client.call(req)
    this.out.success(`${a.id}: ${a.status}`)
    renderKeyValue(this.out, [
      ['id', a.id],
      ['provider', a.provider],
      ['status', a.status],
    ])
    return a
  }
}
