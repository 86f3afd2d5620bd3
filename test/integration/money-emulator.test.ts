import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {api, approvedCustomer, beneficiary, clabeEnding, imbalance, until} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  // Completion after 400 ms: long enough that the held funds can be read before it lands on a loaded machine.
  sbx = await startSandbox({
    paymentCompletionDelayMs: 400,
    paymentReturnDelayMs: 60,
    paymentTimeoutFailMs: 60,
    livenessDelayMs: 30,
  })
})
afterAll(async () => sbx.stop())

describe('local sandbox money movement (HTTP)', () => {
  it('funds, quotes USD to MXN, executes once and settles with both webhooks', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const fund = await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 100_000})
    expect(fund.status).toBe(200)
    expect(fund.body.balance.amount).toBe(100_000)
    const ext = await api(sbx, 'POST', '/customers/external-accounts', {
      customerId: c.id,
      currency: 'MXN',
      accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
    })
    expect(ext.status).toBe(201)
    expect(ext.body).toMatchObject({
      status: 'ACTIVE',
      beneficiaryVerificationStatus: 'MATCHED',
      accountInfo: {paymentRails: ['SPEI']},
    })
    const q = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 25_000,
    })
    expect(q.status).toBe(201)
    expect(q.body).toMatchObject({status: 'PENDING', totalSendingAmount: 25_000, exchangeRate: 17.25})
    // 0.30% service fee on the net plus the default rail fee of USD 0.50.
    expect(q.body.feesIncluded).toBe(50 + Math.ceil(((25_000 - q.body.feesIncluded) * 30) / 10000))
    expect(q.body.totalReceivingAmount).toBe(Math.floor((25_000 - q.body.feesIncluded) * 17.25))
    const ex = await api(sbx, 'POST', `/quotes/${q.body.id}/execute`, undefined, {'idempotency-key': 'k1'})
    expect(ex.body.status).toBe('PROCESSING')
    const again = await api(sbx, 'POST', `/quotes/${q.body.id}/execute`)
    expect(again.status).toBe(409)
    const acc = sbx.emu.db.get<{balance: {amount: number}; totalBalance: {amount: number}}>(
      'internalAccounts',
      c.account('USD'),
    )!
    expect(acc.balance.amount).toBe(75_000)
    expect(acc.totalBalance.amount).toBe(100_000)
    const tx = await until(
      () => api(sbx, 'GET', `/transactions/${q.body.transactionId}`),
      (r) => r.body.status === 'COMPLETED',
    )
    expect(tx.body).toMatchObject({
      status: 'COMPLETED',
      type: 'OUTGOING',
      direction: 'DEBIT',
      quoteId: q.body.id,
      sentAmount: {amount: 25_000},
    })
    expect((await api(sbx, 'GET', `/quotes/${q.body.id}`)).body.status).toBe('COMPLETED')
    const events = (await api(sbx, 'GET', '/sandbox/events')).body.data.map((e: {type: string}) => e.type)
    expect(events).toContain('INCOMING_PAYMENT.COMPLETED')
    expect(events).toContain('OUTGOING_PAYMENT.COMPLETED')
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })
})
