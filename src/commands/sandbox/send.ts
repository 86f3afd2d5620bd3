import {Flags} from '@oclif/core'
import {getQuote, sandboxSend} from '../../lib/api/quotes.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError} from '../../lib/errors.js'
import {idArg} from '../../lib/flags.js'
import {follow} from '../../lib/flows/quote-execute.js'
import {parseMinor} from '../../lib/money.js'
import {renderTransaction} from '../../lib/output/transaction.js'

export default class SandboxSend extends BaseCommand<typeof SandboxSend> {
  static override summary = 'Sandbox: pay a real-time-funded quote (the quote executes when the funds arrive)'
  static override examples = ['<%= config.bin %> sandbox send Quote:…', '<%= config.bin %> sandbox send Quote:… --wait --json']
  static override defaultTimeout = '10m'
  static override args = {quoteId: idArg('Quote')}
  static override flags = {
    'amount-minor': Flags.string({description: 'amount sent in smallest units (default: the quote\'s totalSendingAmount)'}),
    wait: Flags.boolean({description: 'follow the payment to COMPLETED or FAILED'}),
  }

  async run() {
    const f = this.flags
    if (f['amount-minor'] !== undefined && !/^[1-9]\d*$/.test(f['amount-minor'])) throw new InputError([{field: 'currencyAmount', message: `--amount-minor "${f['amount-minor']}" must be a positive whole number`}])
    this.ctx.refuseInProduction('sandbox send')
    const quote = await getQuote(this.ctx.client, this.args.quoteId)
    this.ctx.banner(`send funds for ${quote.id}`)
    const tx = await sandboxSend(this.ctx.client, {quoteId: quote.id, currencyCode: quote.sendingCurrency.code, ...(f['amount-minor'] ? {currencyAmount: parseMinor(f['amount-minor'])} : {})})
    this.out.success(`Funds sent for ${quote.id}: ${tx.id} ${tx.status}`)
    if (f.wait) return follow(this.ctx, quote.id)
    renderTransaction(this.out, tx)
    return tx
  }
}
