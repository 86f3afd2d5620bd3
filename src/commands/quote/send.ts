import {Flags} from '@oclif/core'
import {createQuote} from '../../lib/api/quotes.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {quoteTermFlags} from '../../lib/flags-money.js'
import {buildQuoteRequest} from '../../lib/workflows/quote/input.js'
import {follow} from '../../lib/workflows/quote/execute.js'
import {formatAmount} from '../../lib/output/format.js'
import {renderQuote} from '../../lib/output/quote.js'

export default class QuoteSend extends BaseCommand<typeof QuoteSend> {
  static override summary = 'Same-currency transfer in one request (a quote with immediatelyExecute)'
  static override examples = [
    '<%= config.bin %> quote send --from InternalAccount:… --to ExternalAccount:… --send 100.00 --rail ACH',
    '<%= config.bin %> quote send --from InternalAccount:… --to ExternalAccount:… --amount-minor 10000 --yes --wait --json',
  ]
  static override baseFlags = withTimeout('10m')
  static override flags = {
    ...quoteTermFlags,
    wait: Flags.boolean({description: 'follow the payment to COMPLETED or FAILED (exit 8 at --timeout)'}),
    yes: yesFlag,
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = await buildQuoteRequest(() => (f['dry-run'] ? this.ctx.transport : this.ctx.client), f, {
      immediatelyExecute: true,
      dryRun: f['dry-run'],
    })
    const req = createQuote(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`send from ${f.from}`)
    const amount =
      body.lockedCurrencySide === 'SENDING' ? `${body.lockedCurrencyAmount} smallest units` : 'the quoted amount'
    await this.ctx.confirm(`Send ${amount} from ${f.from} to ${f.to} now?`, {yes: f.yes, always: true})
    const quote = await this.ctx.client.call(req)
    this.out.success(
      `Sent ${formatAmount(quote.totalSendingAmount, quote.sendingCurrency)}: ${quote.status} (transaction ${quote.transactionId ?? '-'})`,
    )
    if (f.wait) return follow(this.ctx, quote.id)
    renderQuote(this.out, quote, this.ctx.now())
    return quote
  }
}
