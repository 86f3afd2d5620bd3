import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {logout, logoutOps} from '../../lib/workflows/wallet/logout.js'

export default class WalletLogout extends BaseCommand<typeof WalletLogout> {
  static override summary =
    "End a wallet's sessions: revoke them on the Service and delete their keys locally, in one step"
  static override description =
    'Every session of the wallet this machine holds a key for is revoked (signed by itself), then its key ' +
    'is deleted from the key store. Sessions the Service already ended (expired, revoked elsewhere) only ' +
    'lose their key. Nothing stored: nothing to do, exit 0.'
  static override examples = [
    '<%= config.bin %> wallet logout InternalAccount:0b6f...',
    '<%= config.bin %> wallet logout InternalAccount:0b6f... --json',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {accountId: idArg('InternalAccount', 'the wallet (an EMBEDDED_WALLET internal account)')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    // One revocation per stored session: the dry run lists them all (none: nothing would be sent).
    if (this.flags['dry-run'])
      return this.dryRun({
        dryRun: true as const,
        requests: logoutOps(this.ctx, this.args.accountId).map((op) => this.ctx.describe(op).request),
      })
    const result = await logout(this.ctx, this.args.accountId)
    if (!result.revoked.length && !result.alreadyEnded.length && !result.keysDeleted)
      this.out.info(`No stored session for ${result.accountId}: nothing to log out.`)
    else {
      for (const id of result.revoked) this.out.success(`Revoked ${id}`)
      for (const id of result.alreadyEnded) this.out.info(`${id} had already ended on the Service`)
      this.out.success(`Logged out of ${result.accountId}: ${result.keysDeleted} key(s) deleted`)
    }
    return result
  }
}
