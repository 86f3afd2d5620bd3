import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api, approvedCustomer, beneficiary, clabeEnding} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let sender: {id: string; account: (c: string) => string}
let receiverUma: string
let externalId: string
let usdc: string
const SOL = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'

beforeAll(async () => {
  sbx = await startSandbox()
  sender = await approvedCustomer(sbx, ['USD', 'USDC'])
  usdc = sender.account('USDC')
  const receiver = await approvedCustomer(sbx, ['EUR', 'MXN'], {name: 'Grace Hopper'})
  receiverUma = (await api(sbx, 'GET', `/customers/${receiver.id}`)).body.umaAddress
  const ext = await api(sbx, 'POST', '/customers/external-accounts', {
    customerId: sender.id,
    currency: 'MXN',
    accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
  })
  expect(ext.status, JSON.stringify(ext.body)).toBe(201)
  externalId = ext.body.id
})
afterAll(async () => sbx.stop())

describe('svc quote receiver', () => {
  it("a sandbox UMA counterparty: its currency, an estimated rate from the sender's currency, payer data it needs, a stored lookupId", async () => {
    const r = await svc(['quote', 'receiver', '$success.eur@sandbox.uma.money', '--customer', sender.id, '--json'], {
      env: sbx.env,
    })
    expect(r.code, r.stderr).toBe(0)
    const found = r.json()
    expect(found).toMatchObject({
      receiverUmaAddress: '$success.eur@sandbox.uma.money',
      supportedCurrencies: [{currency: {code: 'EUR'}, estimatedExchangeRate: 0.92, min: 1}],
      requiredPayerDataFields: [
        {name: 'FULL_NAME', mandatory: true},
        {name: 'COUNTRY_OF_RESIDENCE', mandatory: false},
      ],
    })
    expect(found.lookupId).toMatch(/^Lookup:/)
    expect(sbx.emu.db.get('receiverLookups', found.lookupId)).toMatchObject({
      receiver: '$success.eur@sandbox.uma.money',
      senderCustomerId: sender.id,
    })
  })

  it("a customer of this platform by UMA address (found by the sender's address), and an external account", async () => {
    const senderUma = (await api(sbx, 'GET', `/customers/${sender.id}`)).body.umaAddress
    const byUma = await svc(['quote', 'receiver', receiverUma, '--sender', senderUma, '--json'], {env: sbx.env})
    expect(byUma.code, byUma.stderr).toBe(0)
    // Every currency the receiver holds an account in (its embedded wallet's USDB too).
    expect(byUma.json().supportedCurrencies.map((c: {currency: {code: string}}) => c.currency.code)).toEqual(
      expect.arrayContaining(['EUR', 'MXN']),
    )
    const human = await svc(['quote', 'receiver', externalId, '--customer', sender.id], {env: sbx.env})
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/MXN\t17\.25\t0\.01\t/)
    const ext = (await svc(['quote', 'receiver', externalId, '--customer', sender.id, '--json'], {env: sbx.env})).json()
    expect(ext).toMatchObject({
      accountId: externalId,
      supportedCurrencies: [{currency: {code: 'MXN'}, estimatedExchangeRate: 17.25}],
    })
  })

  it('refusals: unknown sandbox name and unknown address are UMA_NOT_FOUND (exit 5); paying oneself is SELF_PAYMENT (exit 1)', async () => {
    for (const address of ['$nobody@sandbox.uma.money', '$ghost@elsewhere.example']) {
      const r = await svc(['quote', 'receiver', address, '--customer', sender.id, '--json'], {env: sbx.env})
      expect(r.code).toBe(5)
      expect(r.json().error.code).toBe('UMA_NOT_FOUND')
    }
    const senderUma = (await api(sbx, 'GET', `/customers/${sender.id}`)).body.umaAddress
    const self = await svc(['quote', 'receiver', senderUma, '--customer', sender.id, '--json'], {env: sbx.env})
    expect(self.code).toBe(1)
    expect(self.json().error.code).toBe('SELF_PAYMENT')
  })

  it.each([
    ['no sender', ['ExternalAccount:abc'], 'customerId'],
    ['a malformed receiver', ['success@sandbox', '--customer', 'Customer:abc'], 'receiver'],
    ['a bad external account id', ['ExternalAccount:a b', '--customer', 'Customer:abc'], 'receiver'],
    ['a bad sender address', ['ExternalAccount:abc', '--sender', 'ada'], 'senderUmaAddress'],
  ])('refuses %s before sending (exit 2)', async (_n, args, field) => {
    const before = sbx.requestCount()
    const r = await svc(['quote', 'receiver', ...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('svc accounts estimate-withdrawal-fee', () => {
  it('USDC on Solana: network fee in SOL, total fee in USDC, what the recipient receives', async () => {
    const r = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        usdc,
        '--currency',
        'USDC',
        '--network',
        'SOLANA',
        '--to',
        SOL,
        '--amount',
        '10.00',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toEqual({
      networkFee: 5000,
      networkFeeAsset: 'SOL',
      applicationFee: 0,
      totalFee: 10_000,
      netAmount: 9_990_000,
    })
    const human = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        usdc,
        '--currency',
        'USDC',
        '--network',
        'SOLANA',
        '--to',
        SOL,
        '--amount',
        '10.00',
      ],
      {env: sbx.env},
    )
    expect(human.stdout).toMatch(/Network fee\s+0\.000005000 SOL/)
    expect(human.stdout).toMatch(/Recipient gets\s+9\.990000 USDC/)
  })

  it('refusals from the sandbox: an account holding another currency (exit 2), an amount that does not cover the fee (exit 1), an unknown account (exit 5)', async () => {
    const usd = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        sender.account('USD'),
        '--currency',
        'USDC',
        '--network',
        'SOLANA',
        '--to',
        SOL,
        '--amount-minor',
        '1000000',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(usd.code).toBe(2)
    expect(usd.json().error.details.errors[0]).toMatchObject({field: 'currency'})
    const tiny = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        usdc,
        '--currency',
        'USDC',
        '--network',
        'ETHEREUM',
        '--to',
        '0x' + 'ab'.repeat(20),
        '--amount',
        '1.00',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(tiny.code).toBe(1)
    expect(tiny.json().error.code).toBe('INVALID_AMOUNT')
    const missing = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        'InternalAccount:00000000-0000-0000-0000-000000000000',
        '--currency',
        'USDC',
        '--network',
        'SOLANA',
        '--to',
        SOL,
        '--amount',
        '1',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(missing.code).toBe(5)
  })

  it('names every bad field at once before sending (exit 2)', async () => {
    const before = sbx.requestCount()
    const r = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        usdc,
        '--currency',
        'BTC',
        '--network',
        'SOLANA',
        '--to',
        '0xnot',
        '--amount',
        '1.123456789',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(r.code, r.stdout).toBe(2)
    expect(
      r
        .json()
        .error.details.errors.map((e: {field: string}) => e.field)
        .sort(),
    ).toEqual(['amount', 'currency', 'destinationAddress'])
    const tron = await svc(
      [
        'accounts',
        'estimate-withdrawal-fee',
        usdc,
        '--currency',
        'USDT',
        '--network',
        'TRON',
        '--to',
        'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
        '--amount',
        '1',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(tron.code).toBe(2)
    expect(tron.json().error.details.errors[0]).toMatchObject({
      field: 'destinationAddress',
      message: expect.stringMatching(/base58check/),
    })
    const noAmount = await svc(
      ['accounts', 'estimate-withdrawal-fee', usdc, '--currency', 'USDC', '--network', 'SOLANA', '--to', SOL, '--json'],
      {env: sbx.env},
    )
    expect(noAmount.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })
})
