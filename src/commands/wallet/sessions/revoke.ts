import {walletOps} from '../../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, idFlag, yesFlag} from '../../../lib/flags.js'
import {revokeSession} from '../../../lib/workflows/wallet/ops.js'

export default class WalletSessionsRevoke extends BaseCommand<typeof WalletSessionsRevoke> {
  static override summary = 'Revoke a wallet session (signed by any session of the account, itself included)'
  static override examples = [
    '<%= config.bin %> wallet sessions revoke Session:0b6f... --account InternalAccount:9a1c...',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {sessionId: idArg('Session')}
  static override flags = {
    account: idFlag('InternalAccount', {
      description: 'the wallet the session belongs to (default: from the key store)',
      name: 'account',
    }),
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const op = walletOps.revokeSession(this.args.sessionId, this.flags.account)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(op))
    this.ctx.banner(`revoke ${this.args.sessionId}`)
    await this.ctx.confirm(`revoke ${this.args.sessionId}?`, {yes: this.flags.yes})
    const result = await revokeSession(this.ctx, op)
    this.out.success(`Revoked ${result.revoked}`)
    return result
  }
}
