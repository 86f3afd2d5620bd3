import {myTransaction, myTransactions} from '../../../lib/api/agents.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {optionalIdArg, pagingFlags} from '../../../lib/flags.js'
import {renderTransaction, renderTransactionList} from '../../../lib/output/transaction.js'

export default class AgentsMeTransactions extends BaseCommand<typeof AgentsMeTransactions> {
  static override summary = "As the agent: the customer's transactions, or one of them (needs VIEW_TRANSACTIONS)"
  static override examples = ['<%= config.bin %> agents me transactions --profile agent --json']
  static override args = {transactionId: optionalIdArg('Transaction', 'one transaction to show (Transaction:<id>)')}
  static override flags = pagingFlags

  async run() {
    if (this.args.transactionId) {
      const t = await this.ctx.client.call(myTransaction(this.args.transactionId))
      renderTransaction(this.out, t)
      return t
    }
    const list = await listPaged(this.ctx.client, myTransactions({}), {
      limit: this.flags.limit,
      cursor: this.flags.cursor,
      all: this.flags.all,
    })
    await renderTransactionList(this.out, list)
    return list
  }
}
