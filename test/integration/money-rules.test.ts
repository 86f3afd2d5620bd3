import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {api, approvedCustomer, balanceOf, clabeEnding, imbalance, quoteArgs, until} from '../helpers/money.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50, slowPaymentDelayMs: 60_000})
})
afterAll(async () => sbx.stop())

const fund = (id: string, amount: number) => api(sbx, 'POST', `/sandbox/internal-accounts/${id}/fund`, {amount})
const clabe = async (customerId: string, suffix = '123') =>
  (
    await api(sbx, 'POST', '/customers/external-accounts', {
      customerId,
      currency: 'MXN',
      accountInfo: {
        accountType: 'CLABE',
        clabeNumber: clabeEnding(suffix),
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia'},
      },
    })
  ).body.id as string
const usBank = async (customerId: string, accountNumber = '123456789') =>
  (
    await api(sbx, 'POST', '/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber,
        routingNumber: '021000021',
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace'},
      },
    })
  ).body.id as string

describe('quoting rules', () => {
  it('refuses customers that are not APPROVED, and unregulated platforms without end-user terms', async () => {
    const raw = await api(sbx, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Pending Person',
      currencies: ['USD', 'MXN'],
    })
    const acc = sbx.emu.db
      .all<{id: string; customerId: string}>('internalAccounts')
      .find((a) => a.customerId === raw.body.id)!.id
    const f = await sbx.run(['sandbox', 'fund', acc, '--amount-minor', '100', '--json'])
    expect(f.code).toBe(6)
    expect(f.json().error).toMatchObject({code: 'USER_NOT_READY', status: 403})

    const noTerms = await approvedCustomer(sbx, ['USD', 'MXN'], {terms: false})
    await fund(noTerms.account('USD'), 10_000)
    const r = await sbx.run(quoteArgs(noTerms.account('USD'), await clabe(noTerms.id), '--send', '10', '--json'))
    expect(r.code).toBe(6)
    expect(r.json().error.code).toBe('END_USER_TERMS_NOT_ACCEPTED')
    expect(r.json().error.hint).toMatch(/svc customers terms/)

    // A customer that stops being APPROVED (e.g. put on HOLD) can neither quote nor execute a quote made before.
    const held = await approvedCustomer(sbx, ['USD', 'MXN'])
    await fund(held.account('USD'), 10_000)
    const dest = await clabe(held.id)
    const earlier = (await sbx.run(quoteArgs(held.account('USD'), dest, '--send', '10', '--json'))).json()
    sbx.emu.db.put('customers', held.id, {
      ...sbx.emu.db.get<Record<string, unknown>>('customers', held.id)!,
      kycStatus: 'HOLD',
    })
    const quotes = sbx.emu.db.count('quotes')
    const refused = await sbx.run(quoteArgs(held.account('USD'), dest, '--send', '10', '--json'))
    expect(refused.code).toBe(6)
    expect(refused.json().error).toMatchObject({code: 'USER_NOT_READY', status: 403, details: {status: 'HOLD'}})
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
    const ex = await sbx.run(['quote', 'execute', earlier.id, '--yes', '--json'])
    expect(ex.json().error.code).toBe('USER_NOT_READY')
    expect(sbx.emu.db.get<{status: string}>('quotes', earlier.id)!.status).toBe('PENDING')
    expect(balanceOf(sbx, held.account('USD'))).toBe(10_000)
  })

  it('locks the receiving side exactly, and applies standing and per-quote platform fees (USD sources only)', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN', 'EUR'])
    await fund(c.account('USD'), 1_000_000)
    const dest = await clabe(c.id)
    const recv = (
      await sbx.run(
        quoteArgs(
          c.account('USD'),
          dest,
          '--receive',
          '4500.00',
          '--description',
          'March rent',
          '--purpose',
          'FAMILY_SUPPORT',
          '--remittance',
          'INV-42',
          '--json',
        ),
      )
    ).json()
    expect(recv.totalReceivingAmount).toBe(450_000)
    expect(sbx.emu.db.get('quotes', recv.id)).toMatchObject({
      description: 'March rent',
      purposeOfPayment: 'FAMILY_SUPPORT',
      remittanceInformation: 'INV-42',
    })
    expect(recv.totalSendingAmount - recv.feesIncluded).toBe(Math.ceil(450_000 / 17.25))

    expect(
      (
        await sbx.run([
          'api',
          'PATCH',
          '/config',
          '--data',
          '{"feeConfigs":[{"feeType":"CROSS_CURRENCY_TRANSACTION","sourceCurrency":"EUR","variableFeeBps":10,"fixedFee":{"amount":1,"currency":"USD"}}]}',
          '--json',
        ])
      ).code,
    ).toBe(2)
    await api(sbx, 'PATCH', '/config', {
      feeConfigs: [
        {
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'USD',
          variableFeeBps: 100,
          fixedFee: {amount: 50, currency: 'USD'},
        },
      ],
    })
    const standing = (await sbx.run(quoteArgs(c.account('USD'), dest, '--send', '100.00', '--json'))).json()
    const net = standing.totalSendingAmount - standing.feesIncluded
    expect(standing.platformFeesIncluded).toBe(50 + Math.ceil(net / 100))
    const override = (
      await sbx.run(
        quoteArgs(
          c.account('USD'),
          dest,
          '--send',
          '100.00',
          '--platform-fee',
          '2.00',
          '--platform-fee-bps',
          '0',
          '--json',
        ),
      )
    ).json()
    expect(override.platformFeesIncluded).toBe(200)
    const human = await sbx.run(['quote', 'get', override.id])
    expect(human.stdout).toMatch(/platform USD 2\.00/)
    await api(sbx, 'PATCH', '/config', {
      feeConfigs: [
        {
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'USD',
          variableFeeBps: 0,
          fixedFee: {amount: 0, currency: 'USD'},
        },
      ],
    })
    await fund(c.account('EUR'), 10_000)
    const eur = await sbx.run(quoteArgs(c.account('EUR'), dest, '--send', '10', '--platform-fee', '1', '--json'))
    expect(eur.code).toBe(2)
    expect(eur.json().error.details.errors[0].field).toBe('platformFeeOverride')
  })

  it('prices ACH and ACH_SAME_DAY separately, never picks same-day, and applies the NACHA limit and size limits', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await fund(c.account('USD'), 100_000)
    const bank = await usBank(c.id)
    const ach = (await sbx.run(quoteArgs(c.account('USD'), bank, '--send', '100', '--json'))).json()
    expect(ach.destination.paymentRail).toBe('ACH')
    expect(ach.feesIncluded).toBe(25)
    const sameDay = (
      await sbx.run(quoteArgs(c.account('USD'), bank, '--send', '100', '--rail', 'ACH_SAME_DAY', '--json'))
    ).json()
    expect(sameDay.feesIncluded).toBe(150)
    const spei = await sbx.run(quoteArgs(c.account('USD'), bank, '--send', '100', '--rail', 'SPEI', '--json'))
    expect(spei.json().error.details.errors[0].field).toBe('destination.paymentRail')

    await api(sbx, 'PATCH', '/config', {sandbox: {transactionSizeLimits: {USD: 1_000_000_000_00, 'USD-MXN': 5_000}}})
    const big = await sbx.run(
      quoteArgs(
        c.account('USD'),
        bank,
        '--amount-minor',
        '100000001',
        '--lock',
        'receiving',
        '--rail',
        'ACH_SAME_DAY',
        '--json',
      ),
    )
    expect(big.json().error).toMatchObject({code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED', details: {rail: 'ACH_SAME_DAY'}})
    const corridor = await sbx.run(quoteArgs(c.account('USD'), await clabe(c.id), '--send', '60', '--json'))
    expect(corridor.code).toBe(1)
    expect(corridor.json().error).toMatchObject({code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED', details: {limit: 5_000}})
    await api(sbx, 'PATCH', '/config', {sandbox: {transactionSizeLimits: {USD: 100_000_000}}})
  })

  it('429 DAILY_VOLUME_LIMIT_EXCEEDED is not retried and stores nothing; quote send moves money in one request', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await fund(c.account('USD'), 100_000)
    const bank = await usBank(c.id, '55555555')
    const sent = await sbx.run([
      'quote',
      'send',
      '--from',
      c.account('USD'),
      '--to',
      bank,
      '--send',
      '100.00',
      '--yes',
      '--wait',
      '--json',
    ])
    expect(sent.code, sent.stderr).toBe(0)
    expect(sent.json()).toMatchObject({
      status: 'COMPLETED',
      transaction: {status: 'COMPLETED', sentAmount: {amount: 10_000}},
    })
    expect(balanceOf(sbx, c.account('USD'))).toBe(90_000)

    await api(sbx, 'PATCH', '/config', {sandbox: {dailyVolumeLimitUsdCents: 1}})
    const quotes = sbx.emu.db.count('quotes')
    const jobs = sbx.emu.scheduler.pending().length
    const posts = () => sbx.emu.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/quotes')).length
    const before = posts()
    const r = await sbx.run([
      'quote',
      'send',
      '--from',
      c.account('USD'),
      '--to',
      bank,
      '--send',
      '1.00',
      '--yes',
      '--json',
    ])
    await api(sbx, 'PATCH', '/config', {sandbox: {dailyVolumeLimitUsdCents: 5_000_000_000}})
    expect(r.code).toBe(7)
    expect(r.json().error).toMatchObject({code: 'DAILY_VOLUME_LIMIT_EXCEEDED', status: 429})
    expect(posts() - before).toBe(1)
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
    expect(sbx.emu.scheduler.pending().length).toBe(jobs)
    expect(balanceOf(sbx, c.account('USD'))).toBe(90_000)
  })
})

describe('pullable sources', () => {
  it('quotes from a US bank (ACH pull) into an internal account; a CLABE cannot be pulled from', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const bank = await usBank(c.id, '44556677')
    const r = await sbx.run(quoteArgs(bank, c.account('USD'), '--send', '200.00', '--execute', '--yes', '--wait'))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/status\s+COMPLETED/)
    const q = sbx.emu.db
      .all<{id: string; source: {sourceType: string; accountId?: string}; totalReceivingAmount: number}>('quotes')
      .find((x) => x.source.accountId === bank)!
    expect(q.source.sourceType).toBe('ACCOUNT')
    expect(balanceOf(sbx, c.account('USD'))).toBe(q.totalReceivingAmount)
    expect(q.totalReceivingAmount).toBeGreaterThan(19_000)
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])

    const refused = await sbx.run(
      quoteArgs(await clabe(c.id, '124'), c.account('MXN'), '--amount-minor', '1000', '--json'),
    )
    expect(refused.code).toBe(2)
    expect(refused.json().error.details.errors[0]).toMatchObject({field: 'source.accountId'})
  })
})

describe('transactions', () => {
  it('approves an agent-initiated payment; refuses approving one that is not waiting', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await fund(c.account('USD'), 50_000)
    const q = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
      destination: {destinationType: 'ACCOUNT', accountId: await clabe(c.id)},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    })
    await api(sbx, 'POST', `/sandbox/quotes/${q.body.id}/execute-as-agent`, {})
    const pending = await sbx.run(['transactions', 'get', q.body.transactionId])
    expect(pending.stdout).toMatch(/status\s+PENDING: waiting \(COMPLIANCE_REVIEW\)/)
    const ok = await sbx.run(['transactions', 'approve', q.body.transactionId, '--yes', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.json().status).toBe('PROCESSING')
    expect(
      await until(
        () => sbx.emu.db.get<{status: string}>('transactions', q.body.transactionId)!.status,
        (s) => s === 'COMPLETED',
      ),
    ).toBe('COMPLETED')
    const again = await sbx.run(['transactions', 'approve', q.body.transactionId, '--yes', '--json'])
    expect(again.code).toBe(6)
    expect(again.json().error.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')
    expect(again.json().error.hint).toMatch(/waiting for platform approval/)
  })

  it('cancels a slow payment before it settles (funds back); a settled one is not cancellable', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await fund(c.account('USD'), 50_000)
    const slow = (
      await sbx.run(
        quoteArgs(c.account('USD'), await clabe(c.id, '003'), '--send', '100', '--execute', '--yes', '--json'),
      )
    ).json()
    expect(balanceOf(sbx, c.account('USD'))).toBe(40_000)
    const cancel = await sbx.run(['transactions', 'cancel', slow.transactionId, '--yes', '--json'])
    expect(cancel.code, cancel.stderr).toBe(0)
    expect(cancel.json()).toMatchObject({status: 'FAILED', refund: {status: 'COMPLETED', reason: 'USER_CANCELLATION'}})
    expect(balanceOf(sbx, c.account('USD'))).toBe(50_000)
    const twice = await sbx.run(['transactions', 'cancel', slow.transactionId, '--yes', '--json'])
    expect(twice.code).toBe(6)
    expect(twice.json().error.code).toBe('TRANSACTION_NOT_CANCELLABLE')
    const human = await sbx.run(['transactions', 'cancel', slow.transactionId, '--yes'])
    expect(human.code).toBe(6)
    expect(human.stderr).toMatch(/TRANSACTION_NOT_CANCELLABLE/)
    expect(human.stderr).toMatch(/already settled or is past its cancellation window/)
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
  })

  it('lists with filters and --all paging; the deprecated transfer-out still works with its old shape', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await fund(c.account('USD'), 20_000)
    await fund(c.account('USD'), 30_000)
    const bank = await usBank(c.id, '77777777')
    const t = await api(sbx, 'POST', '/transfer-out', {
      source: {accountId: c.account('USD')},
      destination: {accountId: bank, paymentRail: 'ACH'},
      amount: 5_000,
    })
    expect(t.status).toBe(201)
    expect(t.body).toMatchObject({type: 'OUTGOING', status: 'PROCESSING', sentAmount: {amount: 5_000}})
    const refused = await api(sbx, 'POST', '/transfer-out', {
      source: {accountId: c.account('USD')},
      destination: {accountId: await usBank(c.id, '12345002')},
      amount: 5_000,
    })
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS')
    const pulled = await api(sbx, 'POST', '/transfer-in', {
      source: {accountId: bank},
      destination: {accountId: c.account('USD')},
      amount: 1_000,
    })
    expect(pulled.status).toBe(201)
    expect(pulled.body).toMatchObject({
      type: 'OUTGOING',
      sentAmount: {amount: 1_000},
      destination: {accountId: c.account('USD')},
    })
    expect(
      await until(
        () => balanceOf(sbx, c.account('USD')),
        (b) => b === 45_950,
      ),
    ).toBe(45_950) // 1,000 pulled minus the USD 0.50 default rail fee
    const incoming = (
      await sbx.run(['transactions', 'list', '--customer', c.id, '--type', 'INCOMING', '--json'])
    ).json()
    expect(incoming.data.map((x: {receivedAmount: {amount: number}}) => x.receivedAmount.amount).sort()).toEqual(
      [20_000, 30_000, 1_000 - 50].sort(),
    )
    const all = (await sbx.run(['transactions', 'list', '--customer', c.id, '--limit', '1', '--all', '--json'])).json()
    expect(all).toMatchObject({hasMore: false})
    expect(all.data).toHaveLength(5)
    const page = (await sbx.run(['transactions', 'list', '--customer', c.id, '--limit', '1', '--json'])).json()
    expect(page).toMatchObject({hasMore: true, totalCount: 5})
  })

  it('internal accounts show balances in real units and copyable funding instructions', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'USDC'])
    await fund(c.account('USDC'), 12_500_000)
    const r = await sbx.run(['accounts', 'internal', 'get', c.account('USDC'), '--customer', c.id])
    expect(r.stdout).toMatch(/balance\s+USDC 12\.500000/)
    expect(r.stdout).toMatch(/SOLANA_WALLET\n\s+address\s+[1-9A-HJ-NP-Za-km-z]{44}\n\s+assetType\s+USDC/)
    const usd = await sbx.run(['accounts', 'internal', 'list', '--customer', c.id, '--currency', 'USD', '--details'])
    expect(usd.stdout).toMatch(/routingNumber\s+021000021/)
    expect(usd.stdout).toMatch(/reference\s+SVC-\d{8}/)
    const btc = await approvedCustomer(sbx, ['BTC'])
    await fund(btc.account('BTC'), 1_2345_6789)
    const b = await sbx.run(['accounts', 'internal', 'get', btc.account('BTC')])
    expect(b.stdout).toMatch(/balance\s+BTC 1\.23456789/)
    expect(b.stdout).toMatch(/BITCOIN_L1\n[\s\S]*address\s+bcrt1q[0-9a-z]{20,}/)
    const json = (await sbx.run(['accounts', 'internal', 'list', '--customer', c.id, '--json'])).json()
    expect(json.data.find((a: {id: string}) => a.id === c.account('USDC')).balance.amount).toBe(12_500_000)
  })
})
