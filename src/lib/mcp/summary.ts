import type {DescribedRequest} from '../api/describe.js'
import {formatAmount} from '../output/format.js'
import type {ToolArguments} from './arguments.js'
import type {Tool} from './catalogue.js'
import type {Runner} from './runner.js'

/** Body fields a person checks before money moves: amounts, currencies, where from, where to, fees. */
const MONEY_FIELD = /amount|currency|source|destination|fee|account|^to$|^from$/i

/**
 * What a person reads before confirming a plan. Executing or authorizing a quote reads the quote
 * (a GET, which changes nothing) for its totals, fees, rate, source and destination; any other
 * write is summed up from the money fields of the request it would send.
 */
export async function moneySummary(
  tool: Tool,
  args: ToolArguments,
  writes: DescribedRequest[],
  runner: Runner,
): Promise<Record<string, unknown> | undefined> {
  if (typeof args.quoteId === 'string' && /^(agents_me_)?quote_/.test(tool.name)) {
    const read = tool.name.startsWith('agents_me_') ? ['agents', 'me', 'quote', 'get'] : ['quote', 'get']
    const run = await runner.run([...read, args.quoteId], {SVC_PLANNED_REQUESTS: ''})
    if (run.code === 0 && run.doc && typeof run.doc === 'object') return quoteSummary(run.doc as Quote)
  }
  const fields = writes.flatMap((w) => moneyFields(w.body))
  if (!fields.length) return undefined
  const summary: Record<string, unknown> = Object.fromEntries(fields)
  // An amount in smallest units is read in the currency of the internal account it moves from or to.
  const account = [args.accountId, args.from].find((v) => typeof v === 'string' && v.startsWith('InternalAccount:'))
  if (typeof summary.amount === 'number' && typeof account === 'string') {
    const run = await runner.run(['accounts', 'internal', 'get', account], {SVC_PLANNED_REQUESTS: ''})
    const currency = (run.doc as {balance?: {currency?: {code?: string; decimals?: number}}} | undefined)?.balance
      ?.currency
    if (run.code === 0 && currency?.code) summary.amountFormatted = formatAmount(summary.amount, currency)
  }
  return summary
}

interface Quote {
  id?: string
  status?: string
  expiresAt?: string
  source?: unknown
  destination?: unknown
  sendingCurrency?: {code?: string; decimals?: number}
  receivingCurrency?: {code?: string; decimals?: number}
  totalSendingAmount?: number
  totalReceivingAmount?: number
  exchangeRate?: number
  feesIncluded?: number
  platformFeesIncluded?: number
}

function quoteSummary(q: Quote): Record<string, unknown> {
  return {
    quote: q.id,
    status: q.status,
    sends: formatAmount(q.totalSendingAmount, q.sendingCurrency),
    receives: formatAmount(q.totalReceivingAmount, q.receivingCurrency),
    fees: formatAmount(q.feesIncluded, q.sendingCurrency),
    ...(q.platformFeesIncluded !== undefined
      ? {platformFees: formatAmount(q.platformFeesIncluded, q.sendingCurrency)}
      : {}),
    exchangeRate: q.exchangeRate,
    source: q.source,
    destination: q.destination,
    quoteExpiresAt: q.expiresAt,
  }
}

function moneyFields(body: unknown): Array<[string, unknown]> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return []
  return Object.entries(body).filter(([k]) => MONEY_FIELD.test(k))
}
