import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readContract} from '../helpers/contract.js'
import {api, approvedCustomer, externalAddArgs, imbalance, until} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * The contract's own request examples (../shared/spec/openapi.yaml) are accepted by the sandbox:
 * only the ids of things that must exist here are swapped for real ones, every other value is the
 * example's. The contract check (test/helpers/contract-setup.ts) validates each exchange too.
 */
let sbx: TestSandbox
let doc: Record<string, any>
beforeAll(async () => {
  sbx = await startSandbox()
  doc = await readContract()
})
afterAll(async () => sbx.stop())

const example = (path: string, name: string) =>
  structuredClone(doc.paths[path].post.requestBody.content['application/json'].examples[name].value)

describe('usBankAccount (POST /customers/external-accounts, POST /platform/external-accounts)', () => {
  it("is accepted as published: accountInfo.platformAccountId is the account's reference, routing number 123456789 passes", async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const body = {...example('/customers/external-accounts', 'usBankAccount'), customerId: c.id}
    expect(body.accountInfo).toMatchObject({routingNumber: '123456789', platformAccountId: 'ext_acc_123456'})
    const r = await api(sbx, 'POST', '/customers/external-accounts', body)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({
      customerId: c.id,
      currency: 'USD',
      platformAccountId: 'ext_acc_123456',
      accountInfo: {accountType: 'USD_ACCOUNT', routingNumber: '123456789', accountNumber: '12345678901'},
    })
    expect(sbx.emu.db.get('externalAccounts', r.body.id)).toMatchObject({platformAccountId: 'ext_acc_123456'})

    const platform = await api(sbx, 'POST', '/platform/external-accounts', {
      ...example('/platform/external-accounts', 'usBankAccount'),
      accountInfo: {...body.accountInfo, accountNumber: '12345678902'},
    })
    expect(platform.status, JSON.stringify(platform.body)).toBe(201)
    expect(platform.body).toMatchObject({platformAccountId: 'ext_acc_123456'})
    expect(platform.body.customerId).toBeUndefined()
  })

  it('two different references for one account are refused, naming the field; nothing is stored', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const before = sbx.emu.db.count('externalAccounts')
    const r = await api(sbx, 'POST', '/customers/external-accounts', {
      ...example('/customers/external-accounts', 'usBankAccount'),
      customerId: c.id,
      platformAccountId: 'other-ref',
    })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: {
        errors: [
          {
            field: 'accountInfo.platformAccountId',
            message: expect.stringMatching(/differs from platformAccountId "other-ref"/),
          },
        ],
      },
    })
    expect(sbx.emu.db.count('externalAccounts')).toBe(before)
  })

  it('the CLI sends a routing number with a bad ABA checksum, and warns on stderr', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const r = await sbx.run(
      externalAddArgs(
        c.id,
        '--type',
        'USD_ACCOUNT',
        '--account-number',
        '12345678903',
        '--routing-number',
        '123456789',
        '--bank-name',
        'Chase Bank',
        '--beneficiary-name',
        'John Doe',
        '--platform-account-id',
        'ext_acc_9',
        '--json',
      ),
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      /accountInfo\.routingNumber fails the ABA routing-number checksum \(3-7-1\); check it for a typo \(sent anyway: the Service checks 9 digits only\)/,
    )
    expect(r.json()).toMatchObject({platformAccountId: 'ext_acc_9', accountInfo: {routingNumber: '123456789'}})
    const good = await sbx.run(
      externalAddArgs(
        c.id,
        '--type',
        'USD_ACCOUNT',
        '--account-number',
        '12345678904',
        '--routing-number',
        '021000021',
        '--beneficiary-name',
        'John Doe',
        '--json',
      ),
    )
    expect(good.code, good.stderr).toBe(0)
    expect(good.stderr).not.toMatch(/checksum/)
  })
})

describe('accountToUma (POST /quotes)', () => {
  const moneyIn = (id: string, amount: number) => api(sbx, 'POST', `/sandbox/internal-accounts/${id}/fund`, {amount})
  const balanceOf = (id: string) =>
    sbx.emu.db.get<{balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts', id)!

  it("quotes, executes and completes as published: the receiver's currency at the lookup's rate, credited on this platform", async () => {
    const body = example('/quotes', 'accountToUma')
    const address = body.destination.umaAddress
    expect(body).toMatchObject({
      destination: {destinationType: 'UMA_ADDRESS', umaAddress: '$receiver@uma.domain.com', currency: 'EUR'},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    })
    const sender = await approvedCustomer(sbx, ['USD'])
    await moneyIn(sender.account('USD'), 100_000)
    const created = await api(sbx, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Jane Receiver',
      currencies: ['EUR'],
      umaAddress: address,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const receiverEur = sbx.emu.db
      .all<{id: string; customerId: string; balance: {currency: {code: string}}}>('internalAccounts')
      .find((a) => a.customerId === created.body.id && a.balance.currency.code === 'EUR')!.id

    const lookup = await api(sbx, 'GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${sender.id}`)
    expect(lookup.status).toBe(200)
    expect(
      lookup.body.supportedCurrencies.find((c: {currency: {code: string}}) => c.currency.code === 'EUR'),
    ).toMatchObject({estimatedExchangeRate: 0.92})
    // The rate moves after the lookup: the quote keeps the rate the lookup showed.
    await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {EUR: '0.95'}}})
    const r = await api(sbx, 'POST', '/quotes', {
      ...body,
      lookupId: lookup.body.lookupId,
      source: {...body.source, accountId: sender.account('USD')},
    })
    await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {EUR: '0.92'}}})
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const q = r.body
    expect(q).toMatchObject({
      status: 'PENDING',
      destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR'},
      sendingCurrency: {code: 'USD'},
      receivingCurrency: {code: 'EUR'},
      totalSendingAmount: 1000,
      exchangeRate: 0.92,
      description: 'Payment for invoice #1234',
    })
    expect(q.totalReceivingAmount).toBe(Math.floor(((1000 - q.feesIncluded) * 92) / 100))
    expect(q.transactionId).toMatch(/^Transaction:/)

    const ex = await api(sbx, 'POST', `/quotes/${q.id}/execute`)
    expect(ex.status, JSON.stringify(ex.body)).toBe(200)
    expect(ex.body.status).toBe('PROCESSING')
    expect(balanceOf(sender.account('USD'))).toMatchObject({balance: {amount: 99_000}, totalBalance: {amount: 100_000}})
    const done = await until(
      () => api(sbx, 'GET', `/transactions/${q.transactionId}`),
      (t) => t.body.status === 'COMPLETED',
    )
    expect(done.body).toMatchObject({
      status: 'COMPLETED',
      type: 'OUTGOING',
      destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR'},
      receivedAmount: {amount: q.totalReceivingAmount},
    })
    expect((await api(sbx, 'GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED')
    expect(balanceOf(sender.account('USD'))).toMatchObject({balance: {amount: 99_000}, totalBalance: {amount: 99_000}})
    expect(balanceOf(receiverEur).balance.amount).toBe(q.totalReceivingAmount)
    const senderUma = (await api(sbx, 'GET', `/customers/${sender.id}`)).body.umaAddress
    const incoming = sbx.emu.webhooks
      .list()
      .filter((e) => e.type === 'INCOMING_PAYMENT.COMPLETED')
      .map((e) => e.data as Record<string, any>)
      .find((d) => d.customerId === created.body.id)
    expect(incoming).toMatchObject({
      type: 'INCOMING',
      destination: {accountId: receiverEur},
      source: {sourceType: 'UMA_ADDRESS', umaAddress: senderUma, currency: 'USD'},
      receivedAmount: {amount: q.totalReceivingAmount},
    })
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
  })

  it('refusals name what is wrong and store nothing: no lookupId, an unknown or foreign lookup, a currency not offered, missing payer data, an amount out of range', async () => {
    const sender = await approvedCustomer(sbx, ['USD'])
    const other = await approvedCustomer(sbx, ['USD'])
    await moneyIn(sender.account('USD'), 100_000)
    const address = '$success.eur@sandbox.uma.money'
    const lookupFor = async (addr: string, customerId: string) =>
      (await api(sbx, 'GET', `/receiver/uma/${encodeURIComponent(addr)}?customerId=${customerId}`)).body
        .lookupId as string
    const lookupId = await lookupFor(address, sender.id)
    const base = {
      source: {sourceType: 'ACCOUNT', accountId: sender.account('USD')},
      destination: {destinationType: 'UMA_ADDRESS', umaAddress: address},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      lookupId,
      senderCustomerInfo: {FULL_NAME: 'Ada Lovelace'},
    }
    const quotes = sbx.emu.db.count('quotes')
    const cases: Array<[string, Record<string, unknown>, number, string, unknown]> = [
      ['no lookupId', {lookupId: undefined}, 400, 'INVALID_INPUT', {errors: [{field: 'lookupId'}]}],
      [
        'unknown lookup',
        {lookupId: 'Lookup:00000000-0000-0000-0000-000000000000'},
        404,
        'LOOKUP_REQUEST_NOT_FOUND',
        undefined,
      ],
      [
        "another address's lookup",
        {lookupId: await lookupFor('$success.usd@sandbox.uma.money', sender.id)},
        400,
        'INVALID_INPUT',
        {errors: [{field: 'lookupId', message: expect.stringMatching(/was made for \$success\.usd/)}]},
      ],
      [
        "another sender's lookup",
        {lookupId: await lookupFor(address, other.id)},
        400,
        'INVALID_INPUT',
        {errors: [{field: 'lookupId', message: expect.stringMatching(/for the sender/)}]},
      ],
      [
        'a currency not offered',
        {destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'MXN'}},
        400,
        'INVALID_CURRENCY',
        {offered: ['EUR']},
      ],
      [
        'missing payer data',
        {senderCustomerInfo: {COUNTRY_OF_RESIDENCE: 'GB'}},
        400,
        'MISSING_MANDATORY_USER_INFO',
        {missing: ['FULL_NAME'], errors: [{field: 'senderCustomerInfo.FULL_NAME'}]},
      ],
      [
        'a malformed address',
        {destination: {destinationType: 'UMA_ADDRESS', umaAddress: 'success@sandbox'}},
        400,
        'INVALID_INPUT',
        {errors: [{field: 'destination.umaAddress'}]},
      ],
    ]
    for (const [name, patch, status, code, details] of cases) {
      const r = await api(sbx, 'POST', '/quotes', {...base, ...patch})
      expect([name, r.status, r.body.code], JSON.stringify(r.body)).toEqual([name, status, code])
      if (details) expect(r.body.details, name).toMatchObject(details as object)
    }
    await api(sbx, 'PATCH', '/config', {sandbox: {transactionSizeLimits: {EUR: 500}}})
    const range = await api(sbx, 'POST', '/quotes', {
      ...base,
      lookupId: await lookupFor(address, sender.id),
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 501,
    })
    await api(sbx, 'PATCH', '/config', {sandbox: {transactionSizeLimits: {}}})
    expect(range.status).toBe(400)
    expect(range.body).toMatchObject({
      code: 'AMOUNT_OUT_OF_RANGE',
      details: {min: 1, max: 500, amount: 501, currency: 'EUR'},
    })
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
    expect(balanceOf(sender.account('USD')).balance.amount).toBe(100_000)
  })
})
