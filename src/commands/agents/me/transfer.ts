import {Flags} from '@oclif/core'
import {myTransfer} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idFlag, idempotencyKeyFlag} from '../../../lib/flags.js'
import {explainAction} from '../../../lib/workflows/agent/actions.js'
import {agentAmount} from '../../../lib/workflows/agent/amount.js'
import {transferInRequest, transferOutRequest} from '../../../lib/schemas/transfers.js'
import {checkWith} from '../../../lib/validate.js'

export default class AgentsMeTransfer extends BaseCommand<typeof AgentsMeTransfer> {
  static override summary =
    'As the agent: a same-currency transfer out to a beneficiary (--out) or in from the bank (--in), under the policy'
  static override examples = [
    '<%= config.bin %> agents me transfer --out --account InternalAccount:… --external ExternalAccount:… --amount 10.00 --profile agent',
  ]
  static override flags = {
    out: Flags.boolean({
      description: 'pay out from the internal account to the external one',
      exactlyOne: ['out', 'in'],
    }),
    in: Flags.boolean({
      description: 'pull from the external bank account into the internal one',
      exactlyOne: ['out', 'in'],
    }),
    account: idFlag('InternalAccount', {
      description: "the customer's internal account",
      required: true,
      name: 'internalAccountId',
    }),
    external: idFlag('ExternalAccount', {
      description: 'the external account',
      required: true,
      name: 'externalAccountId',
    }),
    amount: Flags.string({description: 'amount in real units (10.00)', exactlyOne: ['amount', 'amount-minor']}),
    'amount-minor': Flags.string({
      description: 'amount in smallest units (1000): needs no currency lookup, so it works with --dry-run',
      exactlyOne: ['amount', 'amount-minor'],
    }),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const amount = await agentAmount(this.ctx, {
      accountId: f.account!,
      flag: 'amount',
      real: f.amount,
      minor: f['amount-minor'],
      field: 'amount',
      accountField: 'internalAccountId',
      dryRun: f['dry-run'],
    })
    const body = f.out
      ? checkWith(transferOutRequest, {source: {accountId: f.account}, destination: {accountId: f.external}, amount})
      : checkWith(transferInRequest, {source: {accountId: f.external}, destination: {accountId: f.account}, amount})
    const req = myTransfer(f.out ? 'transfer-out' : 'transfer-in', body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const x = await this.ctx.client.call(req)
    explainAction(this.out, x)
    return x
  }
}
