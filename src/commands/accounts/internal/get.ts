import {getInternalAccount} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg, idFlag} from '../../../lib/flags.js'
import {renderInternalAccount} from '../../../lib/output/accounts.js'

export default class AccountsInternalGet extends BaseCommand<typeof AccountsInternalGet> {
  static override summary = 'Show one internal account: balance, total balance (held funds) and funding instructions'
  static override examples = ['<%= config.bin %> accounts internal get InternalAccount:… --customer Customer:…']
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    customer: idFlag('Customer', {
      description: 'owner (narrows the look-up: the API has no get-by-id)',
      name: 'customerId',
    }),
  }

  async run() {
    const a = await getInternalAccount(this.ctx.client, this.args.accountId, this.flags.customer)
    renderInternalAccount(this.out, a)
    return a
  }
}
