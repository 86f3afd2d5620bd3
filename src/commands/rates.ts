import {Flags} from '@oclif/core'
import {getExchangeRates} from '../lib/api/reference.js'
import {BaseCommand} from '../lib/base-command.js'
import {InputError, type FieldError} from '../lib/errors.js'
import {currencyProblem, minorAmount} from '../lib/workflows/money-input.js'
import {rateView} from '../lib/output/reference.js'
import {renderTable} from '../lib/output/render.js'
import {exchangeRatesQuery} from '../lib/schemas/reference.js'
import {checkWith} from '../lib/validate.js'

export default class Rates extends BaseCommand<typeof Rates> {
  static override summary =
    'Exchange rates per corridor (cached about 5 minutes), with fees and what a sending amount delivers'
  static override description = [
    'Filter by currency pair with --from and --to (repeatable). Amounts are exact decimal strings in real units; ' +
      'sendingPerReceiving is how many sending units buy one receiving unit, as the API gives it.',
    'Quotes lock the rate; these are estimates.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> rates --from USD --to EUR',
    '<%= config.bin %> rates --from USD --to MXN --to BRL --amount 250.00 --json',
  ]
  static override flags = {
    from: Flags.string({description: 'sending currency (USD, EUR, USDC ...)'}),
    to: Flags.string({description: 'receiving currency; repeat for several', multiple: true, multipleNonGreedy: true}),
    amount: Flags.string({
      description: 'sending amount in real units of --from (default 100.00 for 2-decimal currencies)',
      exclusive: ['amount-minor'],
      dependsOn: ['from'],
    }),
    'amount-minor': Flags.string({description: 'sending amount in smallest units (default 10000)'}),
  }

  async run() {
    const f = this.flags
    const errors: FieldError[] = []
    const from = currencyProblem(f.from, 'sourceCurrency', errors)
    const to = (f.to ?? []).map((c) => currencyProblem(c, 'destinationCurrency', errors))
    const sending = minorAmount(f, from, 'sendingAmount', errors, true)
    if (errors.length) throw new InputError(errors)
    const query = checkWith(exchangeRatesQuery, {
      ...(from ? {sourceCurrency: from} : {}),
      ...(to.length ? {destinationCurrency: to} : {}),
      ...(sending !== undefined ? {sendingAmount: String(sending)} : {}),
    })
    const rates = (await this.ctx.client.call(getExchangeRates(query))).data.map(rateView)
    await renderTable(
      this.out,
      ['FROM', 'TO', 'RAIL', 'SEND', 'RECEIVE', 'SEND PER 1 TO', 'FEES', 'MIN', 'MAX'],
      rates.map((r) => [
        r.from,
        r.to,
        r.rail,
        r.sendingAmount,
        r.receivingAmount,
        r.sendingPerReceiving,
        r.fees.total,
        r.minSendingAmount,
        r.maxSendingAmount,
      ]),
      {what: 'corridors for these currencies', hint: '`svc rates` without currencies lists every corridor.'},
    )
    return rates
  }
}
