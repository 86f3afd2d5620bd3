import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {evaluatePolicy} from '../../src/emulator/domain/agent-actions.js'
import type {StoredAgent} from '../../src/emulator/domain/agents.js'
import {api, approvedCustomer} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let agent: StoredAgent
let account: string
beforeAll(async () => {
  sbx = await startSandbox()
  const c = await approvedCustomer(sbx, ['USD', 'MXN'])
  account = c.account('USD')
  const r = await api(sbx, 'POST', '/agents', {
    name: 'P',
    customerId: c.id,
    policy: {
      permissions: ['EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: {currency: 'USD', perTransactionLimit: 10_000},
    },
  })
  agent = sbx.emu.db.get<StoredAgent>('agents', r.body.agent.id)!
})
afterAll(async () => sbx.stop())

const withPolicy = (patch: Partial<StoredAgent['policy']>, usage: Partial<StoredAgent['usage']> = {}): StoredAgent => ({
  ...agent,
  policy: {...agent.policy, ...patch, spendingLimits: {...agent.policy.spendingLimits, ...patch.spendingLimits}},
  usage: {...agent.usage, ...usage},
})
/** Every reason the policy gives: the limits it refuses on, then what waits for the platform. */
const reasons = (a: StoredAgent, amount: number, currency = 'USD', acc = account) => {
  const {refusals, approvals} = evaluatePolicy(sbx.emu, a, amount, currency, acc)
  return [...refusals, ...approvals]
}
const refusals = (a: StoredAgent, amount: number, currency = 'USD') =>
  evaluatePolicy(sbx.emu, a, amount, currency, account).refusals

describe('agent policy: what is refused, and what needs the platform approval', () => {
  it('within every limit: nothing (the action runs at once)', () => {
    expect(reasons(agent, 10_000)).toEqual([])
  })

  it('each limit, by itself', () => {
    expect(reasons(agent, 10_001)).toEqual(['above the per-transaction limit of 10000 USD'])
    expect(refusals(agent, 10_001)).toEqual(['above the per-transaction limit of 10000 USD'])
    expect(reasons(withPolicy({defaultExecutionMode: 'APPROVAL_REQUIRED'}), 1)).toEqual([
      'the policy requires approval for every action',
    ])
    expect(
      reasons(
        withPolicy(
          {spendingLimits: {currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 5000}},
          {dailySpend: 4000},
        ),
        2000,
      ),
    ).toEqual(['above the daily limit of 5000 USD'])
    expect(
      reasons(
        withPolicy(
          {spendingLimits: {currency: 'USD', perTransactionLimit: 10_000, monthlyLimit: 5000}},
          {monthlySpend: 4000},
        ),
        2000,
      ),
    ).toEqual(['above the monthly limit of 5000 USD'])
    expect(
      reasons(
        withPolicy(
          {spendingLimits: {currency: 'USD', perTransactionLimit: 10_000, dailyTransactionLimit: 2}},
          {dailyTransactionCount: 2},
        ),
        1,
      ),
    ).toEqual(['more than 2 transactions today'])
    expect(reasons(withPolicy({approvalThresholds: {currency: 'USD', amount: 500}}), 500)).toEqual([
      'at or above the approval threshold of 500 USD',
    ])
    expect(
      reasons(
        withPolicy({accountRestrictions: {accountRules: [{accountId: account, executionMode: 'APPROVAL_REQUIRED'}]}}),
        1,
      ),
    ).toEqual([`the policy requires approval for actions on ${account}`])
    expect(
      reasons(withPolicy({accountRestrictions: {accountRules: [{accountId: account, perTransactionLimit: 100}]}}), 101),
    ).toEqual([`above the per-transaction limit of 100 for ${account}`])
  })

  it('usage of an earlier day or month does not count', () => {
    const old = withPolicy(
      {spendingLimits: {currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 5000, monthlyLimit: 5000}},
      {dailySpend: 5000, monthlySpend: 5000, dailyResetDate: '2000-01-01', monthlyResetMonth: '2000-01'},
    )
    expect(reasons(old, 5000)).toEqual([])
  })

  it('an amount in another currency is converted into the policy currency first', () => {
    // 17.25 MXN per USD in the sandbox: MXN 1,725.00 is USD 100.00, the per-transaction limit.
    expect(reasons(agent, 172_500, 'MXN')).toEqual([])
    expect(reasons(agent, 172_600, 'MXN')).toEqual(['above the per-transaction limit of 10000 USD'])
  })

  it('F2: a threshold in another currency than the limits applies, converted at the sandbox rate', () => {
    // 0.92 EUR per USD: EUR 1.00 is USD 1.08 and a little; USD 500.00 is far above it.
    const eur = withPolicy({approvalThresholds: {currency: 'EUR', amount: 100}})
    expect(refusals(eur, 500)).toEqual([])
    expect(reasons(eur, 500)).toEqual(['at or above the approval threshold of 100 EUR'])
    expect(reasons(eur, 108)).toEqual([])
    expect(reasons(eur, 109)).toEqual(['at or above the approval threshold of 100 EUR'])
    // The limits re-denominated in MXN do not switch the EUR threshold off.
    const mxn = withPolicy({
      spendingLimits: {currency: 'MXN', perTransactionLimit: 10_000_000},
      approvalThresholds: {currency: 'EUR', amount: 100},
    })
    expect(reasons(mxn, 50_000)).toEqual(['at or above the approval threshold of 100 EUR'])
  })

  it('no rate between the action and the policy: the action is refused (403), not waved through', () => {
    const acme = withPolicy({approvalThresholds: {currency: 'ACME', amount: 100}})
    expect(() => evaluatePolicy(sbx.emu, acme, 500, 'USD', account)).toThrow(
      expect.objectContaining({status: 403, code: 'FORBIDDEN', message: expect.stringMatching(/No USD to ACME rate/)}),
    )
  })
})
