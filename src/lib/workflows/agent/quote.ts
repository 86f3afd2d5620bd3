import {myQuote} from '../../api/agents.js'
import type {Context} from '../../context.js'
import {quoteCreateRequest} from '../../schemas/quotes.js'
import {checkWith} from '../../validate.js'
import {agentAmount} from './amount.js'

export interface AgentQuoteFlags {
  from: string
  to: string
  send?: string
  'amount-minor'?: string
  description?: string
}

/** The agent's quote request: --send in real units of the source account's currency (looked up through /agents/me), or --amount-minor. */
export async function agentQuoteRequest(ctx: Context, f: AgentQuoteFlags, opts: {dryRun?: boolean} = {}) {
  const amount = await agentAmount(ctx, {
    accountId: f.from,
    flag: 'send',
    real: f.send,
    minor: f['amount-minor'],
    field: 'lockedCurrencyAmount',
    accountField: 'source.accountId',
    dryRun: opts.dryRun,
  })
  const body = checkWith(quoteCreateRequest, {
    source: {sourceType: 'ACCOUNT', accountId: f.from},
    destination: {destinationType: 'ACCOUNT', accountId: f.to},
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...(f.description ? {description: f.description} : {}),
  })
  return myQuote(body)
}
