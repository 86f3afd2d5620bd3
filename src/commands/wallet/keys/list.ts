import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {keyColumns} from '../../../lib/output/wallet.js'
import {walletAliasFlag, walletArg, walletFrom} from '../../../lib/flags.js'
import {keyStoreFor, toPublic} from '../../../lib/keystore.js'
import {renderKeys} from '../../../lib/output/wallet.js'

export default class WalletKeysList extends BaseCommand<typeof WalletKeysList> {
  static override summary =
    'List the session keys in the local key store (public keys and expiries; never private material)'
  static override examples = [
    '<%= config.bin %> wallet keys list',
    '<%= config.bin %> wallet keys list InternalAccount:0b6f...',
    '<%= config.bin %> wallet keys list --all-environments --json',
  ]
  static override args = {accountId: walletArg('only keys of this wallet (InternalAccount:<id>)')}
  static override flags = {
    account: walletAliasFlag(),
    'all-environments': Flags.boolean({description: 'include keys of other base URLs (other profiles)'}),
    ...listOutputFlags,
  }

  async run() {
    const view = listView(this.flags, keyColumns, {
      what: 'session keys in the local key store',
      hint: '`svc wallet login` stores one.',
    })
    const keys = keyStoreFor(this.ctx)
      .list({
        accountId: walletFrom(this.args.accountId, this.flags.account),
        allBaseUrls: this.flags['all-environments'],
      })
      .map(toPublic)
    await renderKeys(this.out, keys, view)
    return {data: keys}
  }
}
