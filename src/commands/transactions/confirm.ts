import {Flags} from '@oclif/core'
import {confirmReceiptDelivery} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'
import {transactionConfirmRequest} from '../../lib/schemas/transactions.js'
import {checkWith} from '../../lib/validate.js'

export default class TransactionsConfirm extends BaseCommand<typeof TransactionsConfirm> {
  static override summary =
    "Record that the transaction's receipt was delivered to the customer (receiptDeliveryConfirmedAt)"
  static override description =
    'Needed only where the platform must send receipts. Confirming again replaces the recorded time.'
  static override examples = [
    '<%= config.bin %> transactions confirm Transaction:…',
    '<%= config.bin %> transactions confirm Transaction:… --json',
  ]
  static override args = {transactionId: idArg('Transaction')}
  static override flags = {
    at: Flags.string({
      description: 'when the receipt was delivered (ISO 8601 date-time with offset; default: now, server time)',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.transactionId
    const body = checkWith(
      transactionConfirmRequest,
      this.flags.at === undefined ? {} : {receiptDeliveryConfirmedAt: this.flags.at},
    )
    const req = confirmReceiptDelivery(id, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const t = await this.ctx.client.call(req)
    this.out.success(
      `Receipt delivery for ${id} recorded at ${String(t.receiptDeliveryConfirmedAt ?? body.receiptDeliveryConfirmedAt ?? 'now')}`,
    )
    renderTransaction(this.out, t)
    return t
  }
}
