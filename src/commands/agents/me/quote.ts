import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {idFlag, idempotencyKeyFlag} from '../../../lib/flags.js'
import {agentQuote} from '../../../lib/workflows/agent/quote.js'
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
    send: Flags.string({description: 'amount sent, in real units (25.00)', required: true}),
    description: Flags.string({description: 'description carried on the transaction'}),
    'idempotency-key': idempotencyKeyFlag,
  }

  async run() {
    const q = await agentQuote(this.ctx, {
      from: this.flags.from!,
      to: this.flags.to!,
      send: this.flags.send,
      description: this.flags.description,
    })
    renderQuote(this.out, q, this.ctx.now())
    this.out.info(this.out.dim(`Execute (under the policy): svc agents me execute ${q.id}${this.ctx.profileArg()}`))
    return q
  }
}
