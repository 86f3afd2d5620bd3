import {api, approvedCustomer, clabeEnding, usdBankAccount} from './money.js'
import {agentWith, call} from './principals.js'
import type {TestSandbox} from './sandbox.js'

/**
 * The delegation matrix's vocabulary (issue 29): the customers money can leave, the principals that
 * try, and the routes by which they try, each ending (or not) in money leaving a customer account.
 */

/** A funded customer: its USD account, a CLABE payee (cross-currency) and a USD bank payee (same currency). */
export interface Target {
  id: string
  usd: string
  clabe: string
  usdBank: string
}

export async function fundedTarget(sbx: TestSandbox, name: string, funded = 100_000_000): Promise<Target> {
  const c = await approvedCustomer(sbx, ['USD', 'MXN'], {name})
  const usd = c.account('USD')
  const fund = await api(sbx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: funded})
  const clabe = await api(sbx, 'POST', '/customers/external-accounts', {
    customerId: c.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'CLABE',
      clabeNumber: clabeEnding('123'),
      beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia', nationality: 'MX'},
    },
  })
  const bank = await api(sbx, 'POST', '/customers/external-accounts', usdBankAccount(c.id))
  if (fund.status !== 200 || clabe.status !== 201 || bank.status !== 201)
    throw new Error(`setup: ${JSON.stringify([fund.body, clabe.body, bank.body])}`)
  return {id: c.id, usd, clabe: clabe.body.id, usdBank: bank.body.id}
}

/** What became of a try: money left (the payment runs), it waits for the platform (funds held), or nothing happened. */
export type Outcome = 'moves' | 'waits' | 'refused'

/** The agents' policy in the matrix: USD limits, a threshold in EUR (0.92 EUR per USD in the sandbox). */
export const MATRIX_POLICY = {
  defaultExecutionMode: 'AUTO',
  spendingLimits: {currency: 'USD', perTransactionLimit: 10_000},
  approvalThresholds: {currency: 'EUR', amount: 5_000},
}

/** A quote from the target's USD account; `to` the CLABE (cross-currency) or the USD bank (same currency). */
export const quoteBody = (t: Target, to: 'clabe' | 'usdBank', amount: number, extra: Record<string, unknown> = {}) => ({
  source: {sourceType: 'ACCOUNT', accountId: t.usd},
  destination: {destinationType: 'ACCOUNT', accountId: t[to]},
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
})

/** The transaction an agent call produced, from its action (which hides it from agents without VIEW_TRANSACTIONS). */
export function actionTransaction(sbx: TestSandbox, body: {id?: string} | undefined): string | undefined {
  if (!body?.id?.startsWith('AgentAction:')) return undefined
  return sbx.emu.db.get<{_: {transactionId?: string}}>('agentActions', body.id)?._.transactionId
}

/** An agent quote then its execution, as the agent: the transaction it started, if any. */
export async function agentQuoteAndExecute(sbx: TestSandbox, auth: string, body: unknown): Promise<string | undefined> {
  const q = await call(sbx, auth, 'POST', '/agents/me/quotes', body)
  if (q.status !== 201) return undefined
  const x = await call(sbx, auth, 'POST', `/agents/me/quotes/${q.body.id}/execute`)
  return actionTransaction(sbx, x.body)
}

/** The bearer of a fresh device code (public redemption), or undefined when no code was issued. */
export async function redeem(sbx: TestSandbox, code: string | undefined): Promise<string | undefined> {
  if (!code) return undefined
  const r = await call(sbx, undefined, 'POST', `/agents/device-codes/${code}/redeem`)
  return r.status === 200 ? `Bearer ${r.body.accessToken}` : undefined
}

/** An agent made by the sandbox's own credentials (its grant can't be deleted), waiting for approval on everything. */
export const approvalAgent = (sbx: TestSandbox, customerId: string) =>
  agentWith(sbx, customerId, ['CREATE_QUOTES', 'EXECUTE_QUOTES'], {
    ...MATRIX_POLICY,
    defaultExecutionMode: 'APPROVAL_REQUIRED',
  })
