import {getExternalAccount} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg} from '../../../lib/flags.js'
import {renderExternalAccount} from '../../../lib/output/accounts.js'

export default class AccountsExternalGet extends BaseCommand<typeof AccountsExternalGet> {
  static override summary = 'Show one external account'
  static override examples = ['<%= config.bin %> accounts external get ExternalAccount:… --json']
  static override args = {accountId: idArg('ExternalAccount')}

  async run() {
    const a = await this.ctx.client.call(getExternalAccount(this.args.accountId))
    renderExternalAccount(this.out, a)
    return a
  }
}
