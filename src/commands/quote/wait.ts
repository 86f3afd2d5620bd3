import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {follow} from '../../lib/workflows/quote/execute.js'

export default class QuoteWait extends BaseCommand<typeof QuoteWait> {
  static override summary =
    "Wait until a quote's payment COMPLETED or FAILED (or the quote EXPIRED); exit 8 at --timeout"
  static override examples = ['<%= config.bin %> quote wait Quote:… --timeout 5m --json']
  static override baseFlags = withTimeout('10m')
  static override args = {quoteId: idArg('Quote')}

  async run() {
    return follow(this.ctx, this.args.quoteId)
  }
}
