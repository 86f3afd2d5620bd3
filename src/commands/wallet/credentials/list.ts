import {listCredentials} from '../../../lib/api/wallet.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {credentialColumns} from '../../../lib/output/wallet.js'
import {idArg} from '../../../lib/flags.js'
import {renderCredentials} from '../../../lib/output/wallet.js'

export default class WalletCredentialsList extends BaseCommand<typeof WalletCredentialsList> {
  static override summary = 'List the credentials (AuthMethods) of an embedded wallet'
  static override examples = [
    '<%= config.bin %> wallet credentials list InternalAccount:0b6f...',
    '<%= config.bin %> wallet credentials list InternalAccount:0b6f... --json',
  ]
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {...listOutputFlags}

  async run() {
    const view = listView(this.flags, credentialColumns, {
      what: 'credentials',
      hint: 'Add one with `svc wallet credentials add`.',
    })
    const data = (await this.ctx.client.call(listCredentials(this.args.accountId))).data
    await renderCredentials(this.out, data, view)
    return {data}
  }
}
