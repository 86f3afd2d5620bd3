import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, idFlag} from '../../lib/flags.js'
import {
  cardEventSummary,
  seenCardEvents,
  simulateCard,
  simulationBody,
  simulationInputOf,
  waitForCardEvent,
  withCardCurrency,
} from '../../lib/workflows/cards.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {CARD_SIMULATORS, type CardSimulator} from '../../lib/schemas/cards.js'

export default class SandboxCard extends BaseCommand<typeof SandboxCard> {
  static override summary =
    'Sandbox: simulate a card network event (authorization, clearing, return ...); the outcome arrives by webhook'
  static override description = [
    'Starts a transaction: authorization, balance_inquiry, credit_authorization, ' +
      'credit_authorization_advice, financial_authorization, financial_credit_authorization (need ' +
      '--descriptor, and --amount except balance_inquiry).',
    'Acts on one (--transaction CardTransaction:…): clearing (--amount; 0 = authorization expiry), ' +
      'authorization_advice (--amount = new total), return (--amount), return_reversal, ' +
      'authorization_expiry, exception_resolution (--resolution SETTLE or RETURN: ends an EXCEPTION and its hold).',
    'The answer is only the issuer token. --wait-for-event waits for the CARD_TRANSACTION.* webhook that ' +
      'carried the outcome, prints it and exits 0 (exit 8 at --timeout).',
    'Descriptor suffixes: 002 declined INSUFFICIENT_FUNDS, 003 declined CARD_PAUSED, 005 pull delayed ~30 s, 006 EXCEPTION.',
  ].join('\n')
  static override examples = [
    '<%= config.bin %> sandbox card authorization Card:… --amount 12.50 --descriptor "BLUE BOTTLE COFFEE" --wait-for-event',
    '<%= config.bin %> sandbox card clearing Card:… --transaction CardTransaction:… --amount 12.50 --wait-for-event --json',
    '<%= config.bin %> sandbox card authorization_expiry Card:… --transaction CardTransaction:… --wait-for-event',
    '<%= config.bin %> sandbox card exception_resolution Card:… --transaction CardTransaction:… --resolution RETURN --wait-for-event',
  ]
  static override args = {
    simulator: Args.string({
      description: 'which network event to simulate',
      required: true,
      options: [...CARD_SIMULATORS],
    }),
    cardId: idArg('Card'),
  }
  static override flags = {
    amount: Flags.string({
      description: 'amount in real units of the card currency (12.50)',
      exclusive: ['amount-minor'],
    }),
    'amount-minor': Flags.string({description: 'amount in smallest units'}),
    currency: Flags.string({description: "currency of the amount (default: the card's)"}),
    descriptor: Flags.string({description: 'merchant descriptor; its last three characters pick the sandbox outcome'}),
    mcc: Flags.string({description: 'merchant category code (four digits)'}),
    country: Flags.string({description: 'merchant country (ISO 3166-1 alpha-2)'}),
    transaction: idFlag('CardTransaction', {description: 'the card transaction to act on', name: 'cardTransactionId'}),
    resolution: Flags.string({
      description: 'exception_resolution: SETTLE pays the held amount to the network, RETURN gives it back',
      options: ['SETTLE', 'RETURN'],
    }),
    'wait-for-event': Flags.boolean({
      description: 'wait for the webhook that carries the outcome and print it (exit 8 at --timeout)',
    }),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const kind = this.args.simulator as CardSimulator
    const cardId = this.args.cardId
    const input = simulationInputOf(f)
    const simulated = simulationBody(kind, input)
    let body = simulated.body
    this.ctx.refuseInProduction(`sandbox card ${kind}`)
    if (simulated.needsCurrency && !f['dry-run']) body = await withCardCurrency(this.ctx, cardId, kind, body, input)
    const req = simulateCard(cardId, kind, body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`simulate ${kind} on ${cardId}`)
    const seen = f['wait-for-event'] ? await seenCardEvents(this.ctx) : undefined
    const sim = await this.ctx.client.call(req)
    if (!seen) {
      this.out.success(
        `Accepted: issuer token ${sim.issuerTransactionToken}; the outcome arrives as a CARD_TRANSACTION.* webhook`,
      )
      renderKeyValue(this.out, [['issuerTransactionToken', sim.issuerTransactionToken]])
      return sim
    }
    this.out.info(`Accepted (issuer token ${sim.issuerTransactionToken}); waiting for the webhook …`)
    const event = await waitForCardEvent(this.ctx, seen, {
      token: sim.issuerTransactionToken,
      cardTransactionId: f.transaction,
    })
    this.out.success(cardEventSummary(event))
    if (!this.jsonEnabled()) this.out.print(JSON.stringify(event, null, 2))
    return {issuerTransactionToken: sim.issuerTransactionToken, event}
  }
}
