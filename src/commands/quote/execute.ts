import {Flags} from '@oclif/core'
import {executeQuote, getQuote} from '../../lib/api/quotes.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag, idArg, idempotencyKeyFlag, yesFlag} from '../../lib/flags.js'
import {confirmAndExecute} from '../../lib/workflows/quote/execute.js'

export default class QuoteExecute extends BaseCommand<typeof QuoteExecute> {
  static override summary =
    'Execute a quote after confirming its summary (real-time-funded quotes execute when funds arrive)'
  static override examples = [
    '<%= config.bin %> quote execute Quote:…',
    '<%= config.bin %> quote execute Quote:… --yes --wait --json --idempotency-key "$CI_RUN_ID"',
  ]
  static override baseFlags = withTimeout('10m')
  static override args = {quoteId: idArg('Quote')}
  static override flags = {
    wait: Flags.boolean({description: 'follow the payment to COMPLETED or FAILED (exit 8 at --timeout)'}),
    yes: yesFlag,
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    // The request confirmAndExecute sends (same `execute` key), so a dry run shows what a re-run with --idempotency-key replays.
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(executeQuote(this.args.quoteId)))
    const quote = await this.ctx.client.call(getQuote(this.args.quoteId))
    return confirmAndExecute(this.ctx, quote, {yes: this.flags.yes, wait: this.flags.wait})
  }
}
