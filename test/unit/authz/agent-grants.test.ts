import {describe, expect, it} from 'vitest'
import {canMoveMoney, widenings} from '../../../src/emulator/authz/agent-grants.js'
import {AUTHZ_TABLE} from '../../../src/emulator/authz/table.js'
import type {AgentPolicy} from '../../../src/lib/schemas/agents.js'

const base: AgentPolicy = {
  permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
  defaultExecutionMode: 'APPROVAL_REQUIRED',
  spendingLimits: {currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 50_000, dailyTransactionLimit: 5},
  approvalThresholds: {currency: 'EUR', amount: 5_000},
  accountRestrictions: {
    allowedAccountIds: ['InternalAccount:a'],
    accountRules: [{accountId: 'InternalAccount:a', executionMode: 'APPROVAL_REQUIRED', perTransactionLimit: 1_000}],
  },
}
const patched = (p: Partial<AgentPolicy>): AgentPolicy => ({...base, ...p})

describe('widenings: what lets an agent move more money (issue 29 F1)', () => {
  it('a new agent widens by its money permissions only', () => {
    expect(widenings(undefined, base)).toEqual(['grants EXECUTE_QUOTES'])
    expect(widenings(undefined, patched({permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES']}))).toEqual([])
    expect(canMoveMoney(patched({permissions: ['CREATE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS']}))).toBe(false)
    expect(canMoveMoney(patched({permissions: ['CREATE_TRANSFERS']}))).toBe(true)
  })

  it('each widening, by itself', () => {
    const lim = base.spendingLimits
    const cases: Array<[Partial<AgentPolicy>, string]> = [
      [{permissions: [...base.permissions, 'CREATE_TRANSFERS']}, 'grants CREATE_TRANSFERS'],
      [{defaultExecutionMode: 'AUTO'}, 'switches defaultExecutionMode to AUTO'],
      [{spendingLimits: {...lim, perTransactionLimit: 10_001}}, 'raises spendingLimits.perTransactionLimit'],
      [{spendingLimits: {...lim, dailyLimit: null}}, 'raises spendingLimits.dailyLimit'],
      [{spendingLimits: {...lim, dailyTransactionLimit: undefined}}, 'raises spendingLimits.dailyTransactionLimit'],
      [{spendingLimits: {...lim, currency: 'EUR'}}, 're-denominates the spending limits from USD to EUR'],
      [{approvalThresholds: {currency: 'EUR', amount: 5_001}}, 'raises or removes the approval threshold'],
      [{approvalThresholds: {currency: 'USD', amount: 5_000}}, 'raises or removes the approval threshold'],
      [{approvalThresholds: undefined}, 'raises or removes the approval threshold'],
      [
        {accountRestrictions: {...base.accountRestrictions, allowedAccountIds: null}},
        'widens accountRestrictions.allowedAccountIds',
      ],
      [
        {
          accountRestrictions: {
            ...base.accountRestrictions,
            accountRules: [{accountId: 'InternalAccount:a', executionMode: 'AUTO', perTransactionLimit: 1_000}],
          },
        },
        'switches InternalAccount:a to AUTO',
      ],
      [
        {
          accountRestrictions: {
            ...base.accountRestrictions,
            accountRules: [{accountId: 'InternalAccount:a', executionMode: 'APPROVAL_REQUIRED'}],
          },
        },
        'raises the per-transaction limit of InternalAccount:a',
      ],
    ]
    for (const [patch, why] of cases) expect(widenings(base, patched(patch))).toEqual([why])
    // A limit where there was none narrows.
    expect(widenings(base, patched({spendingLimits: {...lim, monthlyLimit: 1}}))).toEqual([])
  })

  it('narrowing is no widening: lower limits, a lower threshold, APPROVAL_REQUIRED, fewer accounts or permissions', () => {
    expect(
      widenings(
        patched({defaultExecutionMode: 'AUTO'}),
        patched({
          permissions: ['EXECUTE_QUOTES'],
          spendingLimits: {
            currency: 'USD',
            perTransactionLimit: 1,
            dailyLimit: 1,
            dailyTransactionLimit: 1,
            monthlyLimit: 1,
          },
          approvalThresholds: {currency: 'EUR', amount: 1},
          accountRestrictions: {allowedAccountIds: [], accountRules: base.accountRestrictions!.accountRules},
        }),
      ),
    ).toEqual([])
  })

  it('the table marks every step that grants, every agent payment and the same-currency rule', () => {
    const marked = (k: 'grant' | 'spends' | 'sameCurrency') =>
      AUTHZ_TABLE.filter((e) => e.delegation?.[k]).map((e) => e.operationId)
    expect(marked('grant')).toEqual(['createAgent', 'updateAgentPolicy', 'regenerateAgentDeviceCode'])
    expect(marked('spends')).toEqual(['agentExecuteQuote', 'agentCreateTransferIn', 'agentCreateTransferOut'])
    expect(marked('sameCurrency')).toEqual(['agentCreateQuote', 'agentExecuteQuote'])
  })
})
