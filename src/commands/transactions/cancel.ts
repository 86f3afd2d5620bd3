import {Flags} from '@oclif/core'
import {cancelTransaction} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class TransactionsCancel extends BaseCommand<typeof TransactionsCancel> {
  static override summary = 'Cancel an outgoing transaction that has not settled; the funds return to the source'
  static override examples = ['<%= config.bin %> transactions cancel Transaction:… --reason "wrong beneficiary" --yes']
  static override args = {transactionId: idArg('Transaction')}
  static override flags = {
    reason: Flags.string({description: 'why (kept with the transaction)'}),
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.transactionId
    const req = cancelTransaction(id, this.flags.reason ? {reason: this.flags.reason} : {})
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`cancel ${id}`)
    await this.ctx.confirm(`Cancel ${id}?`, {yes: this.flags.yes, always: true})
    const t = await this.ctx.client.call(req)
    this.out.success(
      `Cancelled ${id}: ${t.status}${t.refund ? `, refund ${(t.refund as {status: string}).status}` : ''}`,
    )
    renderTransaction(this.out, t)
    return t
  }
}
