import {walletOps} from '../../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, idFlag, yesFlag} from '../../../lib/flags.js'
import {revokeCredential} from '../../../lib/workflows/wallet/ops.js'

export default class WalletCredentialsRevoke extends BaseCommand<typeof WalletCredentialsRevoke> {
  static override summary =
    'Revoke a wallet credential (signed by a session of a different credential); its sessions go with it'
  static override examples = [
    '<%= config.bin %> wallet credentials revoke AuthMethod:0b6f... --account InternalAccount:9a1c...',
  ]
  static override baseFlags = withTimeout('5m')
  static override args = {credentialId: idArg('AuthMethod')}
  static override flags = {
    account: idFlag('InternalAccount', {
      description: 'the wallet (internal account) holding the credential (default: from the key store)',
      name: 'account',
    }),
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const {account, yes} = this.flags
    const id = this.args.credentialId
    const op = walletOps.revokeCredential(id, account)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(op))
    this.ctx.banner(`revoke ${id}`)
    this.out.warn(`Revoking ${id} also revokes every session it issued.`)
    await this.ctx.confirm(`revoke ${id} and every session it issued?`, {yes})
    const result = await revokeCredential(this.ctx, op)
    this.out.success(
      `Revoked ${id}; its sessions were revoked with it${result.sessionsRemoved ? ` (${result.sessionsRemoved} local key(s) removed)` : ''}`,
    )
    return result
  }
}
