import {Flags} from '@oclif/core'
import {createQuote} from '../../lib/api/quotes.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {quoteCreateFlags} from '../../lib/flags-money.js'
import {buildQuoteRequest} from '../../lib/workflows/quote/input.js'
import {renderQuote} from '../../lib/output/quote.js'

export default class QuoteCreate extends BaseCommand<typeof QuoteCreate> {
  static override summary =
    'Quote a transfer: rate both ways, every fee, both totals and the time left; --execute to pay'
  static override examples = [
    '<%= config.bin %> quote create --from InternalAccount:… --to ExternalAccount:… --send 250.00',
    '<%= config.bin %> quote create --from InternalAccount:… --to ExternalAccount:… --receive 4500.00 --execute --wait',
    '<%= config.bin %> quote create --realtime --customer Customer:… --currency USDC --network SOLANA --to ExternalAccount:… --send 100',
    '<%= config.bin %> quote create --from InternalAccount:… --to ExternalAccount:… --send 250 --execute --yes --json --idempotency-key "$CI_RUN_ID"',
    `<%= config.bin %> quote create --from InternalAccount:… --to-uma '$success.eur@sandbox.uma.money' --send 10.00 --execute --wait`,
  ]
  static override baseFlags = withTimeout('10m')
  static override flags = {
    ...quoteCreateFlags,
    execute: Flags.boolean({description: 'execute after confirmation (production needs --yes off a TTY)'}),
    wait: Flags.boolean({
      description: 'with --execute: follow the payment to COMPLETED or FAILED (exit 8 at --timeout)',
      dependsOn: ['execute'],
    }),
    yes: yesFlag,
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = await buildQuoteRequest(() => (f['dry-run'] ? this.ctx.transport : this.ctx.client), f, {
      dryRun: f['dry-run'],
    })
    const req = createQuote(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const quote = await this.ctx.client.call(req)
    if (f.execute) {
      // Loaded on use, like the SCA branch: a quote that is only shown does not build the payment schemas.
      const {confirmAndExecute} = await import('../../lib/workflows/quote/execute.js')
      return confirmAndExecute(this.ctx, quote, {yes: f.yes, wait: f.wait, request: body})
    }
    if (quote.status === 'PENDING_AUTHORIZATION') {
      // SCA: a real-time quote's payment instructions come only once the customer authorizes it.
      const {handleHeldQuote} = await import('../../lib/workflows/sca/execute.js')
      const held = await handleHeldQuote(this.ctx, quote)
      if (!this.out.json) renderQuote(this.out, held, this.ctx.now())
      return held
    }
    renderQuote(this.out, quote, this.ctx.now())
    if (quote.source.sourceType !== 'REALTIME_FUNDING')
      this.out.info(this.out.dim(`Execute before it expires: svc quote execute ${quote.id}${this.ctx.profileArg()}`))
    return quote
  }
}
