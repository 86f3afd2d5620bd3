import {getTransaction} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class TransactionsGet extends BaseCommand<typeof TransactionsGet> {
  static override summary = 'Show a transaction: status and why (pendingReason, failureReason), amounts, fees, on-chain hashes'
  static override examples = ['<%= config.bin %> transactions get Transaction:… --json']
  static override args = {transactionId: idArg('Transaction')}

  async run() {
    const t = await getTransaction(this.ctx.client, this.args.transactionId)
    renderTransaction(this.out, t)
    return t
  }
}
