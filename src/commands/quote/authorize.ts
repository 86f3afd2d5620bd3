import {Flags} from '@oclif/core'
import {authorizeQuote, resendAuthorization} from '../../lib/api/sca.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {codeFlag, ipFlag, readScaCode} from '../../lib/workflows/sca/flags.js'
import {renderQuote} from '../../lib/output/quote.js'
import {scaAuthorization} from '../../lib/schemas/sca.js'
import {checkWith} from '../../lib/validate.js'

export default class QuoteAuthorize extends BaseCommand<typeof QuoteAuthorize> {
  static override summary =
    "Authorize a quote held in PENDING_AUTHORIZATION with the customer's SCA code (--resend sends the code again)"
  static override examples = [
    '<%= config.bin %> quote authorize Quote:… --code 123456',
    '<%= config.bin %> quote authorize Quote:… --resend',
  ]
  static override args = {quoteId: idArg('Quote')}
  static override flags = {
    code: codeFlag,
    resend: Flags.boolean({description: 'send the SMS code again (same challenge, same expiry)', exclusive: ['code']}),
    ip: ipFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    if (this.flags.resend) {
      const resend = resendAuthorization(this.args.quoteId)
      if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(resend))
      await this.ctx.client.call(resend)
      this.out.success(`The SCA code for ${this.args.quoteId} was sent again`)
      return {quoteId: this.args.quoteId, resent: true}
    }
    const body = checkWith(scaAuthorization, {
      code: readScaCode(this.flags.code)!.reveal(),
      endUserIpAddress: this.flags.ip,
    })
    const req = authorizeQuote(this.args.quoteId, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`authorize ${this.args.quoteId}`)
    const quote = await this.ctx.client.call(req)
    this.out.success(
      `Authorized ${quote.id}: ${quote.status}${quote.transactionId ? ` (transaction ${quote.transactionId})` : ''}`,
    )
    if (!this.out.json) renderQuote(this.out, quote, this.ctx.now())
    return quote
  }
}
