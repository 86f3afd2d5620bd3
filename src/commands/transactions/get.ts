import {getTransaction} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class TransactionsGet extends BaseCommand<typeof TransactionsGet> {
  static override summary =
    'Show a transaction: status and why (pendingReason, failureReason), amounts, fees, on-chain hashes'
  static override examples = [
    '<%= config.bin %> transactions get Transaction:… --json',
    '<%= config.bin %> transactions get CardTransaction:…',
  ]
  static override args = {transactionId: idArg(['Transaction', 'CardTransaction'])}

  async run() {
    const t = await this.ctx.client.call(getTransaction(this.args.transactionId))
    // Card transactions share the list and the lookup; their view is the card one.
    const card =
      t.type === 'CARD' ? (await import('../../lib/schemas/cards.js')).cardTransactionSchema.safeParse(t) : undefined
    if (card?.success) (await import('../../lib/output/cards.js')).renderCardTransaction(this.out, card.data)
    else renderTransaction(this.out, t)
    return t
  }
}
