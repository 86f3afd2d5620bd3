import {Flags} from '@oclif/core'
import {getTransaction} from '../../lib/api/transactions.js'
import {sandboxUmaReceive} from '../../lib/api/uma.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError, type FieldError, stillPending, usageError} from '../../lib/errors.js'
import {idFlag, dryRunFlag} from '../../lib/flags.js'
import {currencyProblem, minorAmount} from '../../lib/workflows/money-input.js'
import {renderTransaction} from '../../lib/output/transaction.js'
import {SANDBOX_UMA_DOMAIN, sandboxUmaReceiveRequest} from '../../lib/schemas/uma.js'
import {checkWith} from '../../lib/validate.js'

export default class SandboxUmaReceive extends BaseCommand<typeof SandboxUmaReceive> {
  static override summary =
    'Sandbox: a sandbox UMA sender pays one of your customers (INCOMING_PAYMENT.PENDING, then COMPLETED)'
  static override description = [
    `Senders at ${SANDBOX_UMA_DOMAIN}: $success.<usd|eur|mxn> (approved after a short wait unless you approve or reject first), ` +
      '$pending.long.<cur> (waits for `svc transactions approve|reject`), $fail.compliance.<cur> (fails COMPLIANCE_REJECTED), ' +
      '$refund.<cur> (approved, crediting fails OFFRAMP_FAILED, the money goes back: refund PENDING then ' +
      'COMPLETED), $refund.fail.<cur> (the same, but the refund FAILS).',
    "The money reaches the customer's internal account in --currency only when the payment completes.",
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> sandbox uma-receive --customer Customer:… --currency USD --amount 25.00 --wait',
    `<%= config.bin %> sandbox uma-receive --to '$ada@sandbox.uma.local' --from '$pending.long.eur@${SANDBOX_UMA_DOMAIN}' --currency EUR --amount-minor 1000`,
  ]
  static override flags = {
    from: Flags.string({
      description: `the sandbox sender (UMA address at ${SANDBOX_UMA_DOMAIN})`,
      default: `$success.usd@${SANDBOX_UMA_DOMAIN}`,
    }),
    to: Flags.string({description: "the receiving customer's UMA address ($name@domain)", exclusive: ['customer']}),
    customer: idFlag('Customer', {description: 'the receiving customer', name: 'customerId'}),
    currency: Flags.string({
      description: 'currency the customer receives (an internal account in it must exist)',
      required: true,
    }),
    amount: Flags.string({
      description: 'amount received, in real units of --currency (25.00)',
      exclusive: ['amount-minor'],
    }),
    'amount-minor': Flags.string({description: 'amount received, in smallest units'}),
    wait: Flags.boolean({description: 'wait until the payment leaves PENDING (exit 8 at --timeout)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    if (f.amount === undefined && f['amount-minor'] === undefined)
      throw usageError('Give --amount <real units> or --amount-minor <smallest units>')
    const errors: FieldError[] = []
    const code = currencyProblem(f.currency, 'receivingCurrencyCode', errors)
    const amount = minorAmount(f, code, 'receivingCurrencyAmount', errors)
    if (errors.length) throw new InputError(errors)
    const body = checkWith(sandboxUmaReceiveRequest, {
      senderUmaAddress: f.from,
      receiverUmaAddress: f.to,
      customerId: f.customer,
      receivingCurrencyCode: code,
      receivingCurrencyAmount: amount,
    })
    this.ctx.refuseInProduction('sandbox uma-receive')
    const req = sandboxUmaReceive(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner('sandbox uma-receive')
    let t = await this.ctx.client.call(req)
    this.out.success(`${t.id}: ${body.senderUmaAddress} is paying; ${t.status}`)
    while (f.wait && t.status === 'PENDING') {
      if (this.ctx.remainingMs() <= 0)
        throw stillPending(
          `${t.id} is still PENDING at --timeout`,
          `Approve or reject it (\`svc transactions approve ${t.id}\`), or watch it with \`svc transactions get ${t.id}\`.`,
        )
      await this.ctx.sleep(Math.min(250, this.ctx.remainingMs()))
      t = await this.ctx.client.call(getTransaction(t.id))
    }
    if (f.wait) this.out.info(`${t.id} is ${t.status}`)
    renderTransaction(this.out, t)
    return t
  }
}
