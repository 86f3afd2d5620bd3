import {Args, Flags} from '@oclif/core'
import {lookupReceiver} from '../../lib/api/uma.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError, type FieldError} from '../../lib/errors.js'
import {checkId, idFlag} from '../../lib/flags.js'
import {fromMinor} from '../../lib/money.js'
import {renderKeyValue, renderTable} from '../../lib/output/render.js'
import {UMA_ADDRESS, receiverLookupQuery} from '../../lib/schemas/uma.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {compact} from '../../lib/validate.js'

export default class QuoteReceiver extends BaseCommand<typeof QuoteReceiver> {
  static override summary = 'What a receiver accepts before you quote: currencies, estimated rates, limits, payer data it needs, and the lookupId'
  static override description = 'The receiver is an UMA address ($name@domain) or an external account (ExternalAccount:<id>). Rates are estimates (receiving units per one sending unit); a quote locks them.'
  static override examples = [
    `<%= config.bin %> quote receiver '$success.eur@sandbox.uma.money' --customer Customer:…`,
    '<%= config.bin %> quote receiver ExternalAccount:… --customer Customer:… --json',
  ]
  static override args = {receiver: Args.string({description: 'UMA address ($name@domain) or ExternalAccount:<id>', required: true})}
  static override flags = {
    customer: idFlag('Customer', {description: 'the paying customer', name: 'customerId'}),
    sender: Flags.string({description: 'the paying customer\'s UMA address (instead of --customer)', exclusive: ['customer']}),
  }

  async run() {
    const receiver = this.args.receiver.trim()
    const errors: FieldError[] = []
    if (receiver.startsWith('ExternalAccount:')) {
      try {
        checkId(receiver, ['ExternalAccount'], 'receiver')
      } catch (e) {
        if (!(e instanceof InputError)) throw e
        errors.push(...e.fieldErrors)
      }
    } else if (!UMA_ADDRESS.test(receiver)) errors.push({field: 'receiver', message: `"${receiver}" is neither an UMA address ($name@domain) nor an ExternalAccount id`})
    const q = receiverLookupQuery.safeParse(compact({customerId: this.flags.customer, senderUmaAddress: this.flags.sender}))
    if (!q.success) errors.push(...fieldErrors(q.error))
    if (errors.length || !q.success) throw new InputError(errors)
    const found = await lookupReceiver(this.ctx.client, receiver, q.data)
    renderKeyValue(this.out, [
      ['Receiver', receiver],
      ['Lookup', found.lookupId],
      ['Payer data', found.requiredPayerDataFields?.map((f) => `${f.name}${f.mandatory ? '' : ' (optional)'}`).join(', ')],
    ])
    this.out.print()
    await renderTable(this.out, ['CURRENCY', 'EST. RATE', 'MIN', 'MAX'], found.supportedCurrencies.map((c) => {
      const d = c.currency.decimals ?? 2
      return [c.currency.code, String(c.estimatedExchangeRate), fromMinor(c.min, d), fromMinor(c.max, d)]
    }))
    return found
  }
}
