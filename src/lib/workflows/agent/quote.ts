import {myInternalAccounts, myQuote} from '../../api/agents.js'
import {listPaged} from '../../api/paging.js'
import type {Context} from '../../context.js'
import {currency} from '../../currencies.js'
import {InputError} from '../../errors.js'
import {MoneyError, toMinor} from '../../money.js'
import {quoteCreateRequest} from '../../schemas/quotes.js'
import {checkWith} from '../../validate.js'

/** Quotes as the agent: the amount in real units of the source account's currency (looked up through /agents/me). */
export async function agentQuote(ctx: Context, f: {from: string; to: string; send: string; description?: string}) {
  const accounts = await listPaged(ctx.client, myInternalAccounts({}), {all: true})
  const source = accounts.data.find((a) => a.id === f.from)
  if (!source)
    throw new InputError([
      {
        field: 'source.accountId',
        message: `${f.from} is not one of this agent's customer accounts (see \`svc agents me accounts\`)`,
      },
    ])
  const code = source.balance.currency.code
  let amount: number
  try {
    amount = toMinor(f.send, source.balance.currency.decimals ?? currency(code ?? '')?.decimals ?? 2)
  } catch (e) {
    throw new InputError([{field: 'lockedCurrencyAmount', message: (e as MoneyError).message}])
  }
  const body = checkWith(quoteCreateRequest, {
    source: {sourceType: 'ACCOUNT', accountId: f.from},
    destination: {destinationType: 'ACCOUNT', accountId: f.to},
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...(f.description ? {description: f.description} : {}),
  })
  return ctx.client.call(myQuote(body))
}
