import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, idFlag} from '../../../lib/flags.js'
import {accountFor} from '../../../lib/workflows/wallet/common.js'
import {walletOps} from '../../../lib/api/wallet.js'
import {NEW_SESSION_KEY, refreshSession} from '../../../lib/workflows/wallet/ops.js'
import {renderSession} from '../../../lib/output/wallet.js'

export default class WalletSessionsRefresh extends BaseCommand<typeof WalletSessionsRefresh> {
  static override summary =
    'Refresh a session before it expires (signed by that session; a new key replaces the old one)'
  static override examples = [
    '<%= config.bin %> wallet sessions refresh Session:0b6f... --account InternalAccount:9a1c...',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {sessionId: idArg('Session')}
  static override flags = {
    account: idFlag('InternalAccount', {
      description: 'the wallet the session belongs to (default: from the key store)',
      name: 'account',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const accountId = accountFor(this.ctx, this.flags.account, {sessionId: this.args.sessionId})
    if (this.flags['dry-run'])
      return this.dryRun(this.ctx.describe(walletOps.refreshSession(this.args.sessionId, NEW_SESSION_KEY, accountId)))
    const result = await refreshSession(this.ctx, accountId, this.args.sessionId)
    this.out.success(`Refreshed: ${result.session.id} now expires ${result.session.expiresAt}`)
    renderSession(this.out, result.session, result.key)
    return {
      session: result.session,
      key: {publicKey: result.key.publicKey, expiresAt: result.key.expiresAt, encrypted: result.key.encrypted},
    }
  }
}
