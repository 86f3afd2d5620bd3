import {Flags} from '@oclif/core'
import {rejectTransaction} from '../../lib/api/transactions.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError} from '../../lib/errors.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'
import {renderTransaction} from '../../lib/output/transaction.js'
import {transactionRejectRequest} from '../../lib/schemas/transactions.js'
import {checkWith} from '../../lib/validate.js'

export default class TransactionsReject extends BaseCommand<typeof TransactionsReject> {
  static override summary =
    'Reject a payment waiting for the platform: a PENDING incoming payment (nothing arrives) or an agent-initiated one'
  static override description =
    "Only a PENDING transaction that waits for the platform's decision can be rejected; anything else is " +
    'refused with TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL (exit 6).'
  static override examples = [
    '<%= config.bin %> transactions reject Transaction:… --reason RESTRICTED_JURISDICTION --yes',
  ]
  static override args = {transactionId: idArg('Transaction')}
  static override flags = {
    reason: Flags.string({description: 'why (1-200 characters, kept for your records)'}),
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.transactionId
    const body = checkWith(transactionRejectRequest, this.flags.reason === undefined ? {} : {reason: this.flags.reason})
    if (this.flags.reason !== undefined && !this.flags.reason.trim())
      throw new InputError([{field: 'reason', message: 'must not be blank'}])
    const req = rejectTransaction(id, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`reject ${id}`)
    await this.ctx.confirm(`Reject ${id}?`, {yes: this.flags.yes, always: true})
    const t = await this.ctx.client.call(req)
    this.out.success(`Rejected ${id}: ${t.status}`)
    renderTransaction(this.out, t)
    return t
  }
}
