import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {keyStoreFor} from '../../../lib/keystore.js'
import {walletAliasFlag, walletArg, walletFrom, yesFlag} from '../../../lib/flags.js'

export default class WalletKeysPurge extends BaseCommand<typeof WalletKeysPurge> {
  static override summary = 'Delete session keys from the local key store (expired keys are always purged on the way)'
  static override examples = [
    '<%= config.bin %> wallet keys purge InternalAccount:0b6f...',
    '<%= config.bin %> wallet keys purge --yes',
  ]
  static override args = {accountId: walletArg('only keys of this wallet (InternalAccount:<id>)')}
  static override flags = {
    account: walletAliasFlag(),
    'all-environments': Flags.boolean({description: 'also keys of other base URLs (other profiles)'}),
    yes: yesFlag,
  }

  async run() {
    const accountId = walletFrom(this.args.accountId, this.flags.account)
    const keys = keyStoreFor(this.ctx)
    await this.ctx.confirm(
      'delete the stored session keys? The sessions stay valid on the service until they expire or are revoked.',
      {yes: this.flags.yes, always: true},
    )
    const removed = keys.purge({accountId, allBaseUrls: this.flags['all-environments']})
    this.out.success(`Removed ${removed} key(s) from ${keys.dir}`)
    return {removed}
  }
}
