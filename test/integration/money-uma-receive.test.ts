import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api, approvedCustomer, balanceOf, beneficiary, clabeEnding, imbalance, until} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let customer: {id: string; account: (code: string) => string}
let uma: string
const SENDER = (kind: string, cur = 'usd') => `$${kind}.${cur}@sandbox.uma.money`
const eventsOf = (id: string) =>
  sbx.emu.webhooks
    .list()
    .filter((e) => (e.data as {id?: string}).id === id)
    .map((e) => e.type)

beforeAll(async () => {
  sbx = await startSandbox({incomingApprovalDelayMs: 300})
  customer = await approvedCustomer(sbx, ['USD', 'EUR'])
  uma = (await api(sbx, 'GET', `/customers/${customer.id}`)).body.umaAddress
})
afterAll(async () => sbx.stop())

describe('svc sandbox uma-receive', () => {
  it('a $success sender pays: PENDING, then COMPLETED with the money in the account and the ledger balanced', async () => {
    const usd = customer.account('USD')
    const before = balanceOf(sbx, usd)
    const r = await svc(
      [
        'sandbox',
        'uma-receive',
        '--customer',
        customer.id,
        '--currency',
        'USD',
        '--amount',
        '25.00',
        '--wait',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    const t = r.json()
    expect(t).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      customerId: customer.id,
      receivedAmount: {amount: 2500, currency: {code: 'USD'}},
      source: {sourceType: 'UMA_ADDRESS', umaAddress: SENDER('success')},
      destination: {accountId: usd},
    })
    expect(r.stderr).toMatch(/is paying; PENDING/)
    expect(balanceOf(sbx, usd) - before).toBe(2500)
    expect(eventsOf(t.id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED'])
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })

  it('a $pending.long payment waits for the platform: reject (nothing arrives, a second reject is exit 6), approve (the money arrives)', async () => {
    const eur = customer.account('EUR')
    const before = balanceOf(sbx, eur)
    const first = await svc(
      [
        'sandbox',
        'uma-receive',
        '--to',
        uma,
        '--from',
        SENDER('pending.long', 'eur'),
        '--currency',
        'EUR',
        '--amount-minor',
        '1234',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(first.code, first.stderr).toBe(0)
    const pending = first.json()
    expect(pending.status).toBe('PENDING')
    const rejected = await svc(
      ['transactions', 'reject', pending.id, '--reason', 'RESTRICTED_JURISDICTION', '--yes', '--json'],
      {env: sbx.env},
    )
    expect(rejected.code, rejected.stderr).toBe(0)
    expect(rejected.json()).toMatchObject({id: pending.id, status: 'REJECTED'})
    expect(sbx.emu.db.get<{status: string}>('transactions', pending.id)!.status).toBe('REJECTED')
    expect(balanceOf(sbx, eur)).toBe(before)
    expect(eventsOf(pending.id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED'])
    const again = await svc(['transactions', 'reject', pending.id, '--yes', '--json'], {env: sbx.env})
    expect(again.code).toBe(6)
    expect(again.json().error.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')

    const second = (
      await svc(
        [
          'sandbox',
          'uma-receive',
          '--customer',
          customer.id,
          '--from',
          SENDER('pending.long', 'eur'),
          '--currency',
          'EUR',
          '--amount',
          '10.00',
          '--json',
        ],
        {env: sbx.env},
      )
    ).json()
    const approved = await svc(['transactions', 'approve', second.id, '--yes', '--json'], {env: sbx.env})
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.json()).toMatchObject({status: 'COMPLETED'})
    expect(balanceOf(sbx, eur) - before).toBe(1000)
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })

  it('a $fail.compliance payment fails COMPLIANCE_REJECTED and moves nothing', async () => {
    const usd = customer.account('USD')
    const before = balanceOf(sbx, usd)
    const r = await svc(
      [
        'sandbox',
        'uma-receive',
        '--customer',
        customer.id,
        '--from',
        SENDER('fail.compliance'),
        '--currency',
        'USD',
        '--amount',
        '5',
        '--wait',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED'})
    expect(balanceOf(sbx, usd)).toBe(before)
  })

  it('a $refund sender: approved by default, crediting fails, the money goes back (refund PENDING -> COMPLETED); $refund.fail: the refund FAILS; nothing moves here', async () => {
    const usd = customer.account('USD')
    const before = balanceOf(sbx, usd)
    for (const [kind, refund, last] of [
      ['refund', 'COMPLETED', 'INCOMING_PAYMENT.REFUND_COMPLETED'],
      ['refund.fail', 'FAILED', 'INCOMING_PAYMENT.REFUND_FAILED'],
    ] as const) {
      // --wait: the sandbox plays the platform's approval; then crediting fails
      const r = await svc(
        [
          'sandbox',
          'uma-receive',
          '--customer',
          customer.id,
          '--from',
          SENDER(kind),
          '--currency',
          'USD',
          '--amount',
          '7.00',
          '--wait',
          '--json',
        ],
        {env: sbx.env},
      )
      expect(r.code, r.stderr).toBe(0)
      const id = r.json().id
      expect(r.json()).toMatchObject({
        status: 'FAILED',
        failureReason: 'OFFRAMP_FAILED',
        refund: {reason: 'TRANSACTION_FAILED'},
      })
      const settled = await until(
        () => sbx.emu.db.get<{refund?: {status: string; settledAt?: string}}>('transactions', id)!,
        (t) => t.refund?.status !== 'PENDING',
      )
      expect(settled.refund?.status).toBe(refund)
      expect(Boolean(settled.refund?.settledAt)).toBe(refund === 'COMPLETED')
      expect(eventsOf(id)).toEqual([
        'INCOMING_PAYMENT.PENDING',
        'INCOMING_PAYMENT.FAILED',
        'INCOMING_PAYMENT.REFUND_PENDING',
        last,
      ])
    }
    expect(balanceOf(sbx, usd)).toBe(before)
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })

  it('refusals from the sandbox: unknown sender (exit 5), no account in the currency (exit 1), unknown receiver (exit 5)', async () => {
    const unknown = await svc(
      [
        'sandbox',
        'uma-receive',
        '--customer',
        customer.id,
        '--from',
        '$nobody@sandbox.uma.money',
        '--currency',
        'USD',
        '--amount',
        '1',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(unknown.code).toBe(5)
    expect(unknown.json().error.code).toBe('UMA_NOT_FOUND')
    const noAccount = await svc(
      ['sandbox', 'uma-receive', '--customer', customer.id, '--currency', 'MXN', '--amount', '1', '--json'],
      {env: sbx.env},
    )
    expect(noAccount.code).toBe(1)
    expect(noAccount.json().error.code).toBe('INVALID_CURRENCY')
    const nobody = await svc(
      ['sandbox', 'uma-receive', '--to', '$ghost@sandbox.uma.local', '--currency', 'USD', '--amount', '1', '--json'],
      {env: sbx.env},
    )
    expect(nobody.code).toBe(5)
  })

  it.each([
    ['no amount', ['--customer', 'Customer:abc', '--currency', 'USD'], 'USAGE', undefined],
    [
      'unknown currency',
      ['--customer', 'Customer:abc', '--currency', 'ZZZ', '--amount', '1'],
      'INVALID_INPUT',
      'receivingCurrencyCode',
    ],
    [
      'too many decimals',
      ['--customer', 'Customer:abc', '--currency', 'USD', '--amount', '1.001'],
      'INVALID_INPUT',
      'receivingCurrencyAmount',
    ],
    [
      'zero',
      ['--customer', 'Customer:abc', '--currency', 'USD', '--amount-minor', '0'],
      'INVALID_INPUT',
      'receivingCurrencyAmount',
    ],
    ['no receiver', ['--currency', 'USD', '--amount', '1'], 'INVALID_INPUT', 'receiverUmaAddress'],
    [
      'bad sender address',
      ['--customer', 'Customer:abc', '--from', 'success@x', '--currency', 'USD', '--amount', '1'],
      'INVALID_INPUT',
      'senderUmaAddress',
    ],
    [
      'bad receiver address',
      ['--to', 'ada', '--currency', 'USD', '--amount', '1'],
      'INVALID_INPUT',
      'receiverUmaAddress',
    ],
  ])('refuses %s before sending (exit 2)', async (_name, args, code, field) => {
    const before = sbx.requestCount()
    const r = await svc(['sandbox', 'uma-receive', ...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    const err = r.json().error
    expect(err.code).toBe(code)
    if (field) expect(err.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('svc transactions reject, agent-initiated payments', () => {
  it("rejects an agent's PENDING payment: it fails and the held funds return to spendable", async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'], {name: 'Agent Owner'})
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 50_000})
    const ext = await api(sbx, 'POST', '/customers/external-accounts', {
      customerId: c.id,
      currency: 'MXN',
      accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
    })
    const q = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    })
    await api(sbx, 'POST', `/sandbox/quotes/${q.body.id}/execute-as-agent`, {})
    expect(balanceOf(sbx, c.account('USD'))).toBe(40_000)
    const r = await svc(['transactions', 'reject', q.body.transactionId, '--yes', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({type: 'OUTGOING', status: 'FAILED'})
    expect(balanceOf(sbx, c.account('USD'))).toBe(50_000)
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })
})

describe('svc transactions confirm', () => {
  it('records the receipt delivery time (given, or now), and a repeat replaces it', async () => {
    const t = (
      await svc(['sandbox', 'uma-receive', '--customer', customer.id, '--currency', 'USD', '--amount', '1', '--json'], {
        env: sbx.env,
      })
    ).json()
    const at = new Date(Date.parse(t.createdAt) + 1).toISOString()
    const r = await svc(['transactions', 'confirm', t.id, '--at', at, '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().receiptDeliveryConfirmedAt).toBe(at)
    expect(sbx.emu.db.get<{receiptDeliveryConfirmedAt: string}>('transactions', t.id)!.receiptDeliveryConfirmedAt).toBe(
      at,
    )
    const now = await svc(['transactions', 'confirm', t.id, '--json'], {env: sbx.env})
    expect(now.code).toBe(0)
    expect(Date.parse(now.json().receiptDeliveryConfirmedAt)).toBeGreaterThanOrEqual(Date.parse(at))
    const early = await svc(['transactions', 'confirm', t.id, '--at', '2001-01-01T00:00:00Z', '--json'], {env: sbx.env})
    expect(early.code).toBe(2)
    expect(early.json().error.details.errors[0]).toMatchObject({field: 'receiptDeliveryConfirmedAt'})
    const missing = await svc(
      ['transactions', 'confirm', 'Transaction:00000000-0000-0000-0000-000000000000', '--json'],
      {env: sbx.env},
    )
    expect(missing.code).toBe(5)
  })

  it.each([
    ['a bad time', ['transactions', 'confirm', 'Transaction:abc', '--at', 'yesterday'], 'receiptDeliveryConfirmedAt'],
    ['a bad id', ['transactions', 'confirm', 'Quote:abc'], 'transactionId'],
    ['a blank reject reason', ['transactions', 'reject', 'Transaction:abc', '--reason', '', '--yes'], 'reason'],
    [
      'a long reject reason',
      ['transactions', 'reject', 'Transaction:abc', '--reason', 'x'.repeat(201), '--yes'],
      'reason',
    ],
  ])('refuses %s before sending (exit 2)', async (_name, args, field) => {
    const before = sbx.requestCount()
    const r = await svc([...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    expect(JSON.stringify(r.json().error)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })
})
