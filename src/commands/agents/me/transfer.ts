import {Flags} from '@oclif/core'
import {myInternalAccounts, myTransfer} from '../../../lib/api/agents.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {currency} from '../../../lib/currencies.js'
import {InputError} from '../../../lib/errors.js'
import {idFlag, idempotencyKeyFlag} from '../../../lib/flags.js'
import {explainAction} from '../../../lib/workflows/agent/actions.js'
import {MoneyError, toMinor} from '../../../lib/money.js'
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
    amount: Flags.string({description: 'amount in real units (10.00)', required: true}),
    'idempotency-key': idempotencyKeyFlag,
  }

  async run() {
    const f = this.flags
    const accounts = await listPaged(this.ctx.client, myInternalAccounts({}), {all: true})
    const internal = accounts.data.find((a) => a.id === f.account)
    if (!internal)
      throw new InputError([
        {field: 'internalAccountId', message: `${f.account} is not one of this agent's customer accounts`},
      ])
    let amount: number
    try {
      amount = toMinor(
        f.amount,
        internal.balance.currency.decimals ?? currency(internal.balance.currency.code ?? '')?.decimals ?? 2,
      )
    } catch (e) {
      throw new InputError([{field: 'amount', message: (e as MoneyError).message}])
    }
    const body = f.out
      ? checkWith(transferOutRequest, {source: {accountId: f.account}, destination: {accountId: f.external}, amount})
      : checkWith(transferInRequest, {source: {accountId: f.external}, destination: {accountId: f.account}, amount})
    const x = await this.ctx.client.call(myTransfer(f.out ? 'transfer-out' : 'transfer-in', body))
    explainAction(this.out, x)
    return x
  }
}
