import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {api, approvedCustomer, balanceOf, expectConserved, nearTheTop, storedAccount, until} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

// Issue 29 F18: a conversion whose amount is fine but which takes the destination past 2^53−1 was
// answered 201 and failed three times in its settlement job. It is refused up front, naming the field.
let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 60_000})
})
afterAll(async () => sbx.stop())

describe('no balance passes the safe integer range', () => {
  it('a conversion that would take the destination (counting payments on their way) past 2^53−1 is 400 naming the field; nothing moves', async () => {
    // 1 USD = 10^9 MXN: 5,000,000 cents become ~5 × 10^15 centavos, safe alone, not twice.
    expect((await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {MXN: '1000000000'}}})).status).toBe(200)
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const [usd, mxn] = [c.account('USD'), c.account('MXN')]
    expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 20_000_000})).status).toBe(200)
    const quote = () =>
      api(sbx, 'POST', '/quotes', {
        source: {sourceType: 'ACCOUNT', accountId: usd},
        destination: {destinationType: 'ACCOUNT', accountId: mxn},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000_000,
      })
    const first = await quote()
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    expect(first.body.totalReceivingAmount).toBeLessThan(Number.MAX_SAFE_INTEGER)
    const executed = await api(sbx, 'POST', `/quotes/${first.body.id}/execute`)
    expect(executed.body.status).toBe('PROCESSING') // on its way to mxn; settles in a minute

    // A second quote alone would fit; with the first on its way it would not.
    const quotes = sbx.emu.db.count('quotes')
    const second = await quote()
    expect(second.status).toBe(400)
    expect(second.body).toMatchObject({code: 'INVALID_INPUT'})
    expect(second.body.details.errors).toEqual([
      {
        field: 'lockedCurrencyAmount',
        message: expect.stringMatching(new RegExp(`would take ${mxn} \\(0 held, \\d+ on its way\\) past the largest`)),
      },
    ])
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
    expect(balanceOf(sbx, usd)).toBe(15_000_000)
    expect(storedAccount(sbx, mxn).totalBalance.amount).toBe(0)
    await expectConserved(sbx)
  })
})

/**
 * Every other site that credits an internal account later, in a job (issue 29 F18): incoming UMA
 * payments, stablecoin mints, card refunds and returns. Each is refused up front, 400 naming its field,
 * counting what is already on its way, and nothing moves. One sandbox each: an account at the top of
 * the range is a currency's whole ledger.
 */
describe('every credit site refuses a credit past 2^53−1 up front', () => {
  const ROOM = 1_000_000
  let own: TestSandbox | undefined
  afterEach(async () => own?.stop())
  const fresh = async () => (own = await startSandbox({paymentCompletionDelayMs: 60_000}))
  const refusedNaming = (r: {status: number; body: any}, field: string, account: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.details.errors).toEqual([
      {
        field,
        message: expect.stringMatching(new RegExp(`would take ${account} \\(\\d+ held, \\d+ on its way\\) past`)),
      },
    ])
  }

  it('an incoming UMA payment (counting the pending ones) is 400 receivingCurrencyAmount; no transaction', async () => {
    const s = await fresh()
    const c = await approvedCustomer(s, ['USD'])
    const usd = c.account('USD')
    nearTheTop(s, usd, ROOM)
    const receiverUmaAddress = (await api(s, 'GET', `/customers/${c.id}`)).body.umaAddress
    const receive = (amount: number, sender = '$pending.long.usd@sandbox.uma.money') =>
      api(s, 'POST', '/sandbox/uma/receive', {
        senderUmaAddress: sender,
        receiverUmaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: amount,
      })
    expect((await receive(600_000)).status).toBe(200) // fits; stays pending
    const before = s.emu.db.count('transactions')
    refusedNaming(await receive(600_000), 'receivingCurrencyAmount', usd) // alone it would fit
    refusedNaming(await receive(2 * ROOM, '$success.usd@sandbox.uma.money'), 'receivingCurrencyAmount', usd)
    expect(s.emu.db.count('transactions')).toBe(before)
    expect(storedAccount(s, usd).totalBalance.amount).toBe(Number.MAX_SAFE_INTEGER - ROOM)
    await expectConserved(s)
  })

  it('a stablecoin mint into the platform account is 400 amount; no operation, the fiat not held', async () => {
    const s = await fresh()
    const key = (k: string) => ({'idempotency-key': k})
    const link = await api(
      s,
      'POST',
      '/stablecoin-provider-accounts',
      {provider: 'BRALE', apiClientId: 'client_1', apiClientSecret: 'secret_1'},
      key('link-1'),
    )
    const coin = await api(
      s,
      'POST',
      '/stablecoins',
      {
        providerTokenIdentifier: 'ACME',
        networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
        network: 'L2',
        stablecoinProviderAccountId: link.body.id,
      },
      key('coin-1'),
    )
    await api(s, 'POST', `/stablecoins/${coin.body.id}/enablement`)
    await api(s, 'POST', `/sandbox/stablecoins/${coin.body.id}/enablement`, {status: 'ENABLED'})
    const coins = (await api(s, 'GET', '/platform/internal-accounts?currency=ACME')).body.data[0].id as string
    const fiat = (await api(s, 'GET', '/platform/internal-accounts?currency=USD')).body.data[0].id as string
    expect((await api(s, 'POST', `/sandbox/internal-accounts/${fiat}/fund`, {amount: 1_000_000})).status).toBe(200)
    nearTheTop(s, coins, ROOM)
    const mint = (amount: number, k: string) =>
      api(
        s,
        'POST',
        `/stablecoins/${coin.body.id}/mints`,
        {
          amount: String(amount),
          fundingSource: {type: 'GRID_INTERNAL_ACCOUNT', accountId: fiat},
          destination: {accountId: coins},
        },
        key(k),
      )
    const first = await mint(600_000, 'm1') // fits; settles later
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const held = balanceOf(s, fiat)
    const ops = s.emu.db.count('stablecoinOperations')
    refusedNaming(await mint(600_000, 'm2'), 'amount', coins)
    expect(s.emu.db.count('stablecoinOperations')).toBe(ops)
    expect(balanceOf(s, fiat)).toBe(held)
    await expectConserved(s)
  })

  it('card refunds (standalone and pending), a credit clearing and a merchant return are 400 amount; nothing credited', async () => {
    const s = await fresh()
    const c = await approvedCustomer(s, ['USD'])
    const usd = c.account('USD')
    expect((await api(s, 'POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 100_000})).status).toBe(200)
    const card = await api(s, 'POST', '/cards', {
      cardholderId: c.id,
      platformCardId: 'safe-range-card-100',
      form: 'VIRTUAL',
      fundingSources: [usd],
    })
    expect(card.status, JSON.stringify(card.body)).toBe(201)
    expect(
      await until(
        () => s.emu.db.get<{state: string}>('cards', card.body.id)!.state,
        (x) => x === 'ACTIVE',
      ),
    ).toBe('ACTIVE')
    const simulate = (kind: string, body: Record<string, unknown>) =>
      api(s, 'POST', `/sandbox/cards/${card.body.id}/simulate/${kind}`, body)
    const merchant = (descriptor: string) => ({currency: {code: 'USD'}, merchant: {descriptor}})
    expect((await simulate('financial_authorization', {amount: 50_000, ...merchant('SHOP')})).status).toBe(202)
    const purchase = s.emu.db.all<{id: string; direction: string}>('cardTransactions')[0]
    nearTheTop(s, usd, ROOM)
    const events = () => s.emu.db.count('events')
    const count = events()
    refusedNaming(
      await simulate('financial_credit_authorization', {amount: 2 * ROOM, ...merchant('REFUND')}),
      'amount',
      usd,
    )
    expect((await simulate('credit_authorization', {amount: 600_000, ...merchant('REFUND')})).status).toBe(202)
    const pendingCredit = s.emu.db
      .all<{id: string; direction: string}>('cardTransactions')
      .find((t) => t.direction === 'CREDIT')!
    const afterPending = events()
    expect(afterPending).toBe(count + 1) // the pending refund's AUTHORIZED event, nothing for the refusal
    refusedNaming(await simulate('credit_authorization', {amount: 600_000, ...merchant('REFUND')}), 'amount', usd)
    refusedNaming(await simulate('clearing', {cardTransactionId: pendingCredit.id, amount: 2 * ROOM}), 'amount', usd)
    refusedNaming(
      await simulate('authorization_advice', {cardTransactionId: pendingCredit.id, amount: 2 * ROOM}),
      'amount',
      usd,
    )
    nearTheTop(s, usd, 500_000) // less room than the pending refund's 600,000 ... and the return's 10,000
    refusedNaming(await simulate('return', {cardTransactionId: purchase.id, amount: 10_000}), 'amount', usd)
    expect(events()).toBe(afterPending)
    expect(storedAccount(s, usd).totalBalance.amount).toBe(Number.MAX_SAFE_INTEGER - 500_000)
    await expectConserved(s)
  })
})
