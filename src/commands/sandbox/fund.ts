import {Flags} from '@oclif/core'
import {fundInternalAccount, getInternalAccount} from '../../lib/api/accounts.js'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError, usageError} from '../../lib/errors.js'
import {dryRunFlag, idArg, idFlag} from '../../lib/flags.js'
import {MoneyError, parseMinor, toMinor} from '../../lib/money.js'
import {formatCurrencyAmount} from '../../lib/output/format.js'
import {renderInternalAccount} from '../../lib/output/accounts.js'

export default class SandboxFund extends BaseCommand<typeof SandboxFund> {
  static override summary = 'Sandbox: credit an internal account (INCOMING_PAYMENT.COMPLETED follows)'
  static override examples = [
    '<%= config.bin %> sandbox fund InternalAccount:… --amount 100.00',
    '<%= config.bin %> sandbox fund InternalAccount:… --amount-minor 10000 --json',
  ]
  static override args = {accountId: idArg('InternalAccount')}
  static override flags = {
    amount: Flags.string({
      description: 'amount in real units of the account currency (100.00)',
      exclusive: ['amount-minor'],
    }),
    'amount-minor': Flags.string({description: 'amount in smallest units'}),
    customer: idFlag('Customer', {description: 'owner of the account (narrows the look-up)', name: 'customerId'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    if (f.amount === undefined && f['amount-minor'] === undefined)
      throw usageError('Give --amount <real units> or --amount-minor <smallest units>')
    if (f.amount !== undefined && !/^\d+(\.\d+)?$/.test(f.amount.trim()))
      throw new InputError([{field: 'amount', message: `"${f.amount}" is not a decimal amount (e.g. 100.00)`}])
    if (f['amount-minor'] !== undefined && !/^[1-9]\d*$/.test(f['amount-minor'].trim()))
      throw new InputError([
        {field: 'amount', message: `--amount-minor "${f['amount-minor']}" must be a positive whole number`},
      ])
    this.ctx.refuseInProduction('sandbox fund')
    let amount: number
    if (f['amount-minor'] !== undefined) amount = parseMinor(f['amount-minor'])
    else if (f['dry-run'])
      throw usageError(
        "--dry-run sends nothing, so the account's currency is not looked up to convert --amount",
        'Give --amount-minor <smallest units> with --dry-run.',
      )
    else {
      const account = await getInternalAccount(this.ctx.client, this.args.accountId, f.customer)
      try {
        amount = toMinor(f.amount!, account.balance.currency.decimals ?? 2)
      } catch (e) {
        throw e instanceof MoneyError ? new InputError([{field: 'amount', message: e.message}]) : e
      }
      if (amount <= 0) throw new InputError([{field: 'amount', message: 'must be more than zero'}])
    }
    const req = fundInternalAccount(this.args.accountId, amount)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`fund ${this.args.accountId}`)
    const account = await this.ctx.client.call(req)
    this.out.success(`Funded ${account.id}: balance ${formatCurrencyAmount(account.balance)}`)
    renderInternalAccount(this.out, account)
    return account
  }
}
