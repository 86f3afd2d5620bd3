import {listSessions} from '../../../lib/api/wallet.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {sessionColumns} from '../../../lib/output/wallet.js'
import {idArg} from '../../../lib/flags.js'
import {keyStoreFor} from '../../../lib/keystore.js'
import {renderSessions} from '../../../lib/output/wallet.js'

export default class WalletSessionsList extends BaseCommand<typeof WalletSessionsList> {
  static override summary = 'List the active sessions of an embedded wallet (and which have a local signing key)'
  static override examples = ['<%= config.bin %> wallet sessions list InternalAccount:0b6f...']
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {...listOutputFlags}

  async run() {
    const view = listView(this.flags, sessionColumns, {what: 'sessions', hint: 'Open one with `svc wallet login`.'})
    const data = (await this.ctx.client.call(listSessions(this.args.accountId))).data
    const local = new Set(
      keyStoreFor(this.ctx)
        .list({accountId: this.args.accountId, kind: 'session'})
        .map((k) => k.sessionId ?? ''),
    )
    await renderSessions(this.out, data, local, view)
    return {data: data.map((s) => ({...s, localKey: local.has(s.id)}))}
  }
}
