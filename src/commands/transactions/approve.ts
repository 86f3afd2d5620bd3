import {approveTransaction} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class TransactionsApprove extends BaseCommand<typeof TransactionsApprove> {
  static override summary =
    'Approve a payment waiting for the platform: a PENDING incoming payment (the money arrives) or an agent-initiated one'
  static override examples = ['<%= config.bin %> transactions approve Transaction:… --yes']
  static override args = {transactionId: idArg('Transaction')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.transactionId
    const req = approveTransaction(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`approve ${id}`)
    await this.ctx.confirm(`Approve ${id} (money will move)?`, {yes: this.flags.yes})
    const t = await this.ctx.client.call(req)
    this.out.success(`Approved ${id}: ${t.status}`)
    renderTransaction(this.out, t)
    return t
  }
}
