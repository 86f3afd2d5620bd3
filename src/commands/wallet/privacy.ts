import {Flags} from '@oclif/core'
import {walletOps} from '../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {setPrivacy} from '../../lib/workflows/wallet/ops.js'

export default class WalletPrivacy extends BaseCommand<typeof WalletPrivacy> {
  static override summary = 'Turn wallet privacy on or off (PATCH privateEnabled, signed retry)'
  static override examples = ['<%= config.bin %> wallet privacy InternalAccount:0b6f... --enabled true']
  static override baseFlags = withTimeout('5m')
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    enabled: Flags.string({description: 'true or false', options: ['true', 'false'], required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const op = walletOps.privacy(this.args.accountId, this.flags.enabled === 'true')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(op))
    const account = await setPrivacy(this.ctx, {...op, accountId: this.args.accountId})
    this.out.success(`Privacy ${this.flags.enabled === 'true' ? 'enabled' : 'disabled'} on ${this.args.accountId}`)
    return account
  }
}
