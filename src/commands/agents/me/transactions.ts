import {myTransactions} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {pagingFlags} from '../../../lib/flags.js'
import {renderTransactionList} from '../../../lib/output/transaction.js'

export default class AgentsMeTransactions extends BaseCommand<typeof AgentsMeTransactions> {
  static override summary = "As the agent: the customer's transactions (needs VIEW_TRANSACTIONS)"
  static override examples = ['<%= config.bin %> agents me transactions --profile agent --json']
  static override flags = pagingFlags

  async run() {
    const list = await myTransactions(this.ctx.client, {}, {limit: this.flags.limit, cursor: this.flags.cursor, all: this.flags.all})
    await renderTransactionList(this.out, list)
    return list
  }
}
