import {Flags} from '@oclif/core'
import {getQuote, sandboxSend} from '../../lib/api/quotes.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {InputError, usageError} from '../../lib/errors.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {follow} from '../../lib/workflows/quote/execute.js'
import {parseMinor} from '../../lib/money.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class SandboxSend extends BaseCommand<typeof SandboxSend> {
  static override summary = 'Sandbox: pay a real-time-funded quote (the quote executes when the funds arrive)'
  static override examples = [
    '<%= config.bin %> sandbox send Quote:…',
    '<%= config.bin %> sandbox send Quote:… --wait --json',
  ]
  static override baseFlags = withTimeout('10m')
  static override args = {quoteId: idArg('Quote')}
  static override flags = {
    currency: Flags.string({description: "currency sent (default: the quote's sending currency, looked up)"}),
    'amount-minor': Flags.string({
      description: "amount sent in smallest units (default: the quote's totalSendingAmount)",
    }),
    wait: Flags.boolean({description: 'follow the payment to COMPLETED or FAILED'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    if (f['amount-minor'] !== undefined && !/^[1-9]\d*$/.test(f['amount-minor']))
      throw new InputError([
        {field: 'currencyAmount', message: `--amount-minor "${f['amount-minor']}" must be a positive whole number`},
      ])
    this.ctx.refuseInProduction('sandbox send')
    const quoteId = this.args.quoteId
    if (f['dry-run'] && !f.currency)
      throw usageError(
        '--dry-run sends nothing, so the quote is not looked up for its sending currency',
        'Name it with --currency <code>.',
      )
    const currencyCode = f.currency ?? (await this.ctx.client.call(getQuote(quoteId))).sendingCurrency.code
    if (!currencyCode)
      throw usageError(`Quote ${quoteId} does not name its sending currency code`, 'Name it with --currency <code>.')
    const body = {quoteId, currencyCode, ...(f['amount-minor'] ? {currencyAmount: parseMinor(f['amount-minor'])} : {})}
    const req = sandboxSend(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`send funds for ${quoteId}`)
    const tx = await this.ctx.client.call(req)
    this.out.success(`Funds sent for ${quoteId}: ${tx.id} ${tx.status}`)
    if (f.wait) return follow(this.ctx, quoteId)
    renderTransaction(this.out, tx)
    return tx
  }
}
