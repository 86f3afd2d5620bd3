import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idFlag, idempotencyKeyFlag} from '../../../lib/flags.js'
import {agentQuoteRequest} from '../../../lib/workflows/agent/quote.js'
import {renderQuote} from '../../../lib/output/quote.js'

export default class AgentsMeQuote extends BaseCommand<typeof AgentsMeQuote> {
  static override summary =
    "As the agent: quote a payment from the customer's account (execute it with `agents me execute`)"
  static override examples = [
    '<%= config.bin %> agents me quote --from InternalAccount:… --to ExternalAccount:… --send 25.00 --profile agent',
  ]
  static override flags = {
    from: idFlag('InternalAccount', {
      description: "source: one of the customer's internal accounts",
      required: true,
      name: 'source.accountId',
    }),
    to: idFlag(['ExternalAccount', 'InternalAccount'], {
      description: 'destination account',
      required: true,
      name: 'destination.accountId',
    }),
    send: Flags.string({
      description: 'amount sent, in real units (25.00)',
      exactlyOne: ['send', 'amount-minor'],
    }),
    'amount-minor': Flags.string({
      description: 'amount sent, in smallest units (2500): needs no currency lookup, so it works with --dry-run',
      exactlyOne: ['send', 'amount-minor'],
    }),
    description: Flags.string({description: 'description carried on the transaction'}),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const req = await agentQuoteRequest(this.ctx, {...f, from: f.from!, to: f.to!}, {dryRun: f['dry-run']})
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const q = await this.ctx.client.call(req)
    renderQuote(this.out, q, this.ctx.now())
    this.out.info(this.out.dim(`Execute (under the policy): svc agents me execute ${q.id}${this.ctx.profileArg()}`))
    return q
  }
}
