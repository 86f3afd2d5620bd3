import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, approvedCustomer, approveInStore, imbalance, storedAccount, webhookEvents} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50})
})
afterAll(async () => sbx.stop())

/** The payloads of the webhooks of one type. */
const eventData = (type: string) => webhookEvents(sbx, type).map((e) => e.data as Record<string, any>)
const conserved = async () => expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
const quotesSent = () => sbx.emu.requests.filter((r) => r.method === 'POST' && /\/quotes$/.test(r.path)).length

async function funded(dollars = '100.00') {
  const c = await approvedCustomer(sbx, ['USD'])
  const f = await sbx.run(['sandbox', 'fund', c.account('USD'), '--amount', dollars, '--json'])
  expect(f.code, f.stderr).toBe(0)
  return c
}

describe('svc quote create --to-uma (issue 21 R1)', () => {
  it("journey: look up, quote in the receiver's currency at the lookup's rate, execute, COMPLETED, with the webhook", async () => {
    const c = await funded()
    const address = '$success.eur@sandbox.uma.money'
    const shown = await sbx.run(['quote', 'create', '--from', c.account('USD'), '--to-uma', address, '--send', '10.00'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toMatch(/to\s+\$success\.eur@sandbox\.uma\.money\n/)
    expect(shown.stdout).toMatch(/rate\s+1 USD = 0\.920000 EUR/)
    expect(shown.stdout).toMatch(/they receive\s+EUR 8\.71\n/)
    expect(shown.stderr).toContain('svc quote execute Quote:')

    const before = quotesSent()
    const r = await sbx.run([
      'quote',
      'create',
      '--from',
      c.account('USD'),
      '--to-uma',
      address,
      '--send',
      '10.00',
      '--execute',
      '--yes',
      '--wait',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const q = r.json()
    expect(q).toMatchObject({
      status: 'COMPLETED',
      destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR'},
      sendingCurrency: {code: 'USD'},
      receivingCurrency: {code: 'EUR'},
      totalSendingAmount: 1000,
      exchangeRate: 0.92,
      transaction: {
        status: 'COMPLETED',
        type: 'OUTGOING',
        destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR'},
        sentAmount: {amount: 1000},
      },
    })
    expect(q.totalReceivingAmount).toBe(Math.floor(((1000 - q.feesIncluded) * 92) / 100))
    expect(q.transaction.receivedAmount.amount).toBe(q.totalReceivingAmount)
    expect(quotesSent() - before).toBe(1) // one quote, after one lookup

    // The sandbox: the lookup the CLI made is this customer's, the money left, the webhook says so.
    const lookups = sbx.emu.db
      .all<{receiver: string; senderCustomerId: string}>('receiverLookups')
      .filter((l) => l.senderCustomerId === c.id)
    expect(lookups.map((l) => l.receiver)).toEqual([address, address])
    expect(sbx.emu.db.get<{status: string}>('quotes', q.id)!.status).toBe('COMPLETED')
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 9_000},
      totalBalance: {amount: 9_000},
    })
    expect(eventData('OUTGOING_PAYMENT.COMPLETED').find((d) => d.id === q.transactionId)).toMatchObject({
      status: 'COMPLETED',
      destination: {umaAddress: address},
      receivedAmount: {amount: q.totalReceivingAmount},
    })
    await conserved()
  })

  it('a compliance failure ($fail.compliance): FAILED COMPLIANCE_REJECTED, exit 1, the money back', async () => {
    const c = await funded()
    const r = await sbx.run([
      'quote',
      'create',
      '--from',
      c.account('USD'),
      '--to-uma',
      '$fail.compliance.usd@sandbox.uma.money',
      '--send',
      '5.00',
      '--execute',
      '--yes',
      '--wait',
      '--json',
    ])
    expect(r.code, r.stdout).toBe(1)
    const err = r.json().error
    expect(err).toMatchObject({code: 'PAYMENT_FAILED'})
    expect(JSON.stringify(err.details)).toContain('COMPLIANCE_REJECTED')
    const t = sbx.emu.db
      .all<{quoteId?: string; status: string; failureReason?: string; customerId?: string}>('transactions')
      .find((x) => x.customerId === c.id && x.quoteId)
    expect(t).toMatchObject({status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED'})
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 10_000},
      totalBalance: {amount: 10_000},
    })
    expect(
      eventData('OUTGOING_PAYMENT.FAILED').some(
        (d) => d.customerId === c.id && d.failureReason === 'COMPLIANCE_REJECTED',
      ),
    ).toBe(true)
    await conserved()
  })

  it('$pending.long stays PROCESSING past the normal completion: quote wait reaches its --timeout (exit 8), the money still held', async () => {
    const c = await funded()
    const q = (
      await sbx.run([
        'quote',
        'create',
        '--from',
        c.account('USD'),
        '--to-uma',
        '$pending.long.usd@sandbox.uma.money',
        '--send',
        '5.00',
        '--json',
      ])
    ).json()
    expect(q).toMatchObject({receivingCurrency: {code: 'USD'}, exchangeRate: 1})
    const r = await sbx.run(['quote', 'execute', q.id, '--yes', '--wait', '--timeout', '600ms', '--json'])
    expect(r.code, r.stdout).toBe(8)
    expect(sbx.emu.db.get<{status: string}>('transactions', q.transactionId)!.status).toBe('PROCESSING')
    expect(storedAccount(sbx, c.account('USD'))).toMatchObject({
      balance: {amount: 9_500},
      totalBalance: {amount: 10_000},
    })
  })

  it('payer data: taken from the customer record; a mandatory field it lacks is refused before the quote (exit 2), --payer-info supplies it', async () => {
    const created = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', currencies: ['USD']})
    const id = created.body.id as string
    approveInStore(sbx, id)
    const usd = sbx.emu.db
      .all<{id: string; customerId: string; balance: {currency: {code: string}}}>('internalAccounts')
      .find((a) => a.customerId === id && a.balance.currency.code === 'USD')!.id
    await api(sbx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 10_000})
    const before = quotesSent()
    const refused = await sbx.run([
      'quote',
      'create',
      '--from',
      usd,
      '--to-uma',
      '$success.mxn@sandbox.uma.money',
      '--send',
      '1.00',
      '--json',
    ])
    expect(refused.code, refused.stdout).toBe(2)
    expect(refused.json().error.details.errors).toEqual([
      {
        field: 'senderCustomerInfo.FULL_NAME',
        message: `is required by $success.mxn@sandbox.uma.money and ${id} has none: --payer-info FULL_NAME=<value>`,
      },
    ])
    expect(quotesSent()).toBe(before)
    const ok = await sbx.run([
      'quote',
      'create',
      '--from',
      usd,
      '--to-uma',
      '$success.mxn@sandbox.uma.money',
      '--send',
      '1.00',
      '--payer-info',
      'FULL_NAME=Grace Hopper',
      '--json',
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.json()).toMatchObject({
      status: 'PENDING',
      destination: {umaAddress: '$success.mxn@sandbox.uma.money', currency: 'MXN'},
      exchangeRate: 17.25,
    })
  })

  it('--to-currency picks one the receiver offers, else exit 2 naming destination.currency after the lookup only', async () => {
    const c = await funded()
    const before = quotesSent()
    const r = await sbx.run([
      'quote',
      'create',
      '--from',
      c.account('USD'),
      '--to-uma',
      '$success.eur@sandbox.uma.money',
      '--to-currency',
      'MXN',
      '--send',
      '1.00',
      '--json',
    ])
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors).toEqual([
      {field: 'destination.currency', message: '$success.eur@sandbox.uma.money receives EUR, not MXN'},
    ])
    expect(quotesSent()).toBe(before)
  })

  it('--lookup-id reuses a lookup from `quote receiver`: a retry with the same --idempotency-key is the same request, and --dry-run shows it', async () => {
    const c = await funded()
    const address = '$success.mxn@sandbox.uma.money'
    const found = await sbx.run(['quote', 'receiver', address, '--customer', c.id, '--json'])
    expect(found.code, found.stderr).toBe(0)
    const lookupId = found.json().lookupId
    const args = [
      'quote',
      'create',
      '--from',
      c.account('USD'),
      '--to-uma',
      address,
      '--lookup-id',
      lookupId,
      '--payer-info',
      'FULL_NAME=Ada Lovelace',
      '--amount-minor',
      '700',
      '--idempotency-key',
      'uma-retry-1',
      '--json',
    ]
    const dry = await sbx.run([...args, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.json().request).toMatchObject({
      method: 'POST',
      headers: {'idempotency-key': 'uma-retry-1'},
      body: {
        destination: {destinationType: 'UMA_ADDRESS', umaAddress: address},
        lookupId,
        senderCustomerInfo: {FULL_NAME: 'Ada Lovelace'},
        lockedCurrencyAmount: 700,
      },
    })
    const quotes = sbx.emu.db.count('quotes')
    const first = await sbx.run(args)
    const again = await sbx.run(args)
    expect([first.code, again.code], first.stderr + again.stderr).toEqual([0, 0])
    expect(again.json().id).toBe(first.json().id)
    expect(first.json()).toMatchObject({destination: {currency: 'MXN'}, exchangeRate: 17.25, totalSendingAmount: 700})
    expect(sbx.emu.db.count('quotes')).toBe(quotes + 1)
    const noCurrency = await sbx.run([
      'quote',
      'create',
      '--from',
      c.account('USD'),
      '--to-uma',
      address,
      '--lookup-id',
      lookupId,
      '--receive',
      '5.00',
      '--json',
    ])
    expect(noCurrency.code).toBe(2)
    expect(noCurrency.json().error.details.errors[0]).toMatchObject({
      field: 'destination.currency',
      message: expect.stringMatching(/needs --to-currency/),
    })
  })

  it.each([
    ['a malformed address', ['--to-uma', 'success@sandbox'], 'destination.umaAddress'],
    [
      '--to and --to-uma together',
      ['--to-uma', '$success.eur@sandbox.uma.money', '--to', 'ExternalAccount:abc'],
      undefined,
    ],
    [
      'a bad --payer-info',
      ['--to-uma', '$success.eur@sandbox.uma.money', '--payer-info', 'full name'],
      'senderCustomerInfo',
    ],
    [
      '--to-currency without --to-uma',
      ['--to', 'ExternalAccount:abc', '--to-currency', 'EUR'],
      'destination.umaAddress',
    ],
  ])('refuses %s before any request (exit 2)', async (_name, args, field) => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'quote',
      'create',
      '--from',
      'InternalAccount:22222222-2222-2222-2222-222222222222',
      '--send',
      '1.00',
      ...args,
      '--json',
    ])
    expect(r.code, r.stdout + r.stderr).toBe(2)
    if (field) expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })

  it('--dry-run cannot look the receiver up: a usage error that says why, nothing sent', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'quote',
      'create',
      '--from',
      'InternalAccount:22222222-2222-2222-2222-222222222222',
      '--to-uma',
      '$success.eur@sandbox.uma.money',
      '--send',
      '1.00',
      '--dry-run',
      '--json',
    ])
    expect(r.code).toBe(2)
    expect(r.json().error).toMatchObject({
      reason: expect.stringMatching(/--dry-run sends nothing, so \$success\.eur@sandbox\.uma\.money is not looked up/),
      hint: expect.stringMatching(/--lookup-id/),
    })
    expect(sbx.requestCount()).toBe(before)
  })
})
