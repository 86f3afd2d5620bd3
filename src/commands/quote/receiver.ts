import {Args, Flags} from '@oclif/core'
import {lookupReceiver} from '../../lib/api/uma.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idFlag} from '../../lib/flags.js'
import {receiverLookupInput} from '../../lib/workflows/receiver-input.js'
import {fromMinor} from '../../lib/money.js'
import {renderKeyValue, renderTable} from '../../lib/output/render.js'

export default class QuoteReceiver extends BaseCommand<typeof QuoteReceiver> {
  static override summary =
    'What a receiver accepts before you quote: currencies, estimated rates, limits, payer data it needs, and the lookupId'
  static override description =
    'The receiver is an UMA address ($name@domain) or an external account (ExternalAccount:<id>). Rates are estimates (receiving units per one sending unit); a quote locks them. To pay an UMA address: `svc quote create --to-uma <address>` (it looks up itself), or pass this lookupId with --lookup-id.'
  static override examples = [
    `<%= config.bin %> quote receiver '$success.eur@sandbox.uma.money' --customer Customer:…`,
    '<%= config.bin %> quote receiver ExternalAccount:… --customer Customer:… --json',
  ]
  static override args = {
    receiver: Args.string({description: 'UMA address ($name@domain) or ExternalAccount:<id>', required: true}),
  }
  static override flags = {
    customer: idFlag('Customer', {description: 'the paying customer', name: 'customerId'}),
    sender: Flags.string({
      description: "the paying customer's UMA address (instead of --customer)",
      exclusive: ['customer'],
    }),
  }

  async run() {
    const {receiver, sender} = receiverLookupInput(this.args.receiver, this.flags)
    const found = await this.ctx.client.call(lookupReceiver(receiver, sender))
    renderKeyValue(this.out, [
      ['Receiver', receiver],
      ['Lookup', found.lookupId],
      [
        'Payer data',
        found.requiredPayerDataFields?.map((f) => `${f.name}${f.mandatory ? '' : ' (optional)'}`).join(', '),
      ],
    ])
    this.out.print()
    await renderTable(
      this.out,
      ['CURRENCY', 'EST. RATE', 'MIN', 'MAX'],
      found.supportedCurrencies.map((c) => {
        const d = c.currency.decimals ?? 2
        return [c.currency.code, String(c.estimatedExchangeRate), fromMinor(c.min, d), fromMinor(c.max, d)]
      }),
    )
    return found
  }
}
