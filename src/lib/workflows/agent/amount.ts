import {myInternalAccounts} from '../../api/agents.js'
import {listPaged} from '../../api/paging.js'
import type {Context} from '../../context.js'
import {currency} from '../../currencies.js'
import {InputError, SvcError, usageError} from '../../errors.js'
import {MoneyError, parseMinor, toMinor} from '../../money.js'

export interface AgentAmountInput {
  /** The internal account whose currency gives real units their decimals. */
  accountId: string
  /** The real-units flag (`send`, `amount`) and its value. */
  flag: string
  real?: string
  minor?: string
  /** The request field an error names. */
  field: string
  /** The id flag's request field, for "not one of this agent's accounts". */
  accountField: string
  dryRun?: boolean
}

/**
 * An agent's amount in smallest units: --amount-minor as given, or real units converted with the
 * decimals of one of the customer's accounts, looked up through /agents/me (which also says the
 * account is not the agent's before anything moves). --dry-run sends nothing, not even that GET.
 */
export async function agentAmount(ctx: Context, a: AgentAmountInput): Promise<number> {
  try {
    if (a.minor !== undefined) return parseMinor(a.minor)
  } catch (e) {
    throw new InputError([{field: a.field, message: (e as MoneyError).message}])
  }
  if (a.dryRun)
    throw usageError(
      `--dry-run sends nothing, so the currency of ${a.accountId} is not looked up to convert --${a.flag} ${a.real}`,
      'Give the amount with --amount-minor <smallest units>, or drop --dry-run.',
    )
  const accounts = await listPaged(ctx.client, myInternalAccounts({}), {all: true}).catch((e: unknown) => {
    // The accounts carry balances, which an agent reads only with VIEW_TRANSACTIONS.
    if (e instanceof SvcError && e.code === 'FORBIDDEN' && e.details?.permission === 'VIEW_TRANSACTIONS')
      throw usageError(
        `--${a.flag} needs the currency of ${a.accountId}, which this agent may not read: its policy lacks VIEW_TRANSACTIONS (the accounts carry their balances)`,
        'Give the amount with --amount-minor <smallest units>, or ask the platform to grant VIEW_TRANSACTIONS.',
      )
    throw e
  })
  const account = accounts.data.find((x) => x.id === a.accountId)
  if (!account)
    throw new InputError([
      {
        field: a.accountField,
        message: `${a.accountId} is not one of this agent's customer accounts (see \`svc agents me accounts\`)`,
      },
    ])
  const {code, decimals} = account.balance.currency
  try {
    return toMinor(a.real!, decimals ?? currency(code ?? '')?.decimals ?? 2)
  } catch (e) {
    throw new InputError([{field: a.field, message: (e as MoneyError).message}])
  }
}
