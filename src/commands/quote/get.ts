import {getQuote} from '../../lib/api/quotes.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderQuote} from '../../lib/output/quote.js'

export default class QuoteGet extends BaseCommand<typeof QuoteGet> {
  static override summary = 'Show a quote: status, totals, fees, rate and time left'
  static override examples = ['<%= config.bin %> quote get Quote:… --json']
  static override args = {quoteId: idArg('Quote')}

  async run() {
    const quote = await this.ctx.client.call(getQuote(this.args.quoteId))
    renderQuote(this.out, quote, this.ctx.now())
    return quote
  }
}
