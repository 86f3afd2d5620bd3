import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {api, approvedCustomer, externalAddArgs, quoteArgs, realtimeQuoteArgs} from '../helpers/money.js'

let sbx: TestSandbox
// Local checks need no real customer: nothing reaches the sandbox.
const customer = 'Customer:44444444-4444-4444-4444-444444444444'
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const add = (...args: string[]) => externalAddArgs(customer, ...args)
const ben = ['--beneficiary-name', 'Maria Garcia']
const Q = 'Quote:11111111-1111-1111-1111-111111111111'
const IA = 'InternalAccount:22222222-2222-2222-2222-222222222222'
const EA = 'ExternalAccount:33333333-3333-3333-3333-333333333333'

describe('local checks refuse bad input before any request (exit 2, field named)', () => {
  it.each([
    [
      'CLABE check digit',
      add('--type', 'CLABE', '--clabe', '002010077777777770', ...ben),
      'accountInfo.clabeNumber',
      /check digit/,
    ],
    [
      'CLABE length',
      add('--type', 'CLABE', '--clabe', '00201007777777777', ...ben),
      'accountInfo.clabeNumber',
      /18 digits/,
    ],
    [
      'ABA routing length',
      add('--type', 'USD_ACCOUNT', '--account-number', '12345', '--routing-number', '02100002', ...ben),
      'accountInfo.routingNumber',
      /9 digits/,
    ],
    [
      'intermediary routing digits',
      add(
        '--type',
        'USD_ACCOUNT',
        '--account-number',
        '12345',
        '--routing-number',
        '021000021',
        '--intermediary-routing-number',
        '12345678x',
        ...ben,
      ),
      'accountInfo.intermediaryRoutingNumber',
      /9 digits/,
    ],
    [
      'IBAN mod-97',
      add('--type', 'EUR_ACCOUNT', '--iban', 'DE89370400440532013001', ...ben),
      'accountInfo.iban',
      /mod-97/,
    ],
    [
      'IBAN length per country',
      add('--type', 'EUR_ACCOUNT', '--iban', 'DE8937040044053201300', ...ben),
      'accountInfo.iban',
      /22 characters/,
    ],
    [
      'PIX CPF key',
      add(
        '--type',
        'BRL_ACCOUNT',
        '--pix-key',
        '52998224726',
        '--pix-key-type',
        'CPF',
        '--tax-id',
        '52998224725',
        ...ben,
      ),
      'accountInfo.pixKey',
      /CPF/,
    ],
    [
      'PIX phone key',
      add(
        '--type',
        'BRL_ACCOUNT',
        '--pix-key',
        '+15551234567',
        '--pix-key-type',
        'PHONE',
        '--tax-id',
        '52998224725',
        ...ben,
      ),
      'accountInfo.pixKey',
      /\+55/,
    ],
    [
      'PIX random key',
      add(
        '--type',
        'BRL_ACCOUNT',
        '--pix-key',
        'not-a-uuid',
        '--pix-key-type',
        'RANDOM',
        '--tax-id',
        '52998224725',
        ...ben,
      ),
      'accountInfo.pixKey',
      /UUID/,
    ],
    ['EVM address', add('--type', 'ETHEREUM_WALLET', '--address', '0x1234'), 'accountInfo.address', /40 hex/],
    [
      'Solana address',
      add('--type', 'SOLANA_WALLET', '--address', '0OIl-not-base58'),
      'accountInfo.address',
      /32 bytes/,
    ],
    [
      'Tron address',
      add('--type', 'TRON_WALLET', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'),
      'accountInfo.address',
      /base58check/,
    ],
    [
      'Plasma address',
      add('--type', 'PLASMA_WALLET', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
      'accountInfo.address',
      /EVM/,
    ],
    [
      'L2 address',
      add('--type', 'L2_WALLET', '--currency', 'BTC', '--address', 'bc1qnot'),
      'accountInfo.address',
      /layer-2/,
    ],
    [
      'currency per kind',
      add('--type', 'TRON_WALLET', '--currency', 'USDC', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
      'currency',
      /USDT/,
    ],
    [
      'beneficiary required',
      add('--type', 'CLABE', '--clabe', '002010077777777771'),
      'accountInfo.beneficiary',
      /required/,
    ],
    [
      'third-party wallet beneficiary',
      add('--type', 'ETHEREUM_WALLET', '--ownership', 'THIRD_PARTY', '--address', '0x' + 'ab'.repeat(20)),
      'accountInfo.beneficiary',
      /THIRD_PARTY/,
    ],
    [
      'EUR individual: country of residence',
      add('--type', 'EUR_ACCOUNT', '--iban', 'DE89370400440532013000', ...ben),
      'accountInfo.beneficiary.countryOfResidence',
      /required for an individual beneficiary of EUR_ACCOUNT/,
    ],
    [
      'wallet individual: country of residence',
      add('--type', 'ETHEREUM_WALLET', '--ownership', 'THIRD_PARTY', '--address', '0x' + 'ab'.repeat(20), ...ben),
      'accountInfo.beneficiary.countryOfResidence',
      /ETHEREUM_WALLET/,
    ],
    ['quote amount syntax', quoteArgs(IA, EA, '--send', '12,5x'), 'lockedCurrencyAmount', /decimal/],
    ['quote amount zero', quoteArgs(IA, EA, '--receive', '0.00'), 'lockedCurrencyAmount', /more than zero/],
    [
      'quote decimals of the currency',
      realtimeQuoteArgs('Customer:abc', '--currency', 'USD', '--to', EA, '--send', '1.234'),
      'lockedCurrencyAmount',
      /3 decimal places/,
    ],
    ['quote minor units', quoteArgs(IA, EA, '--amount-minor', '-5'), 'lockedCurrencyAmount', /whole number/],
    [
      'quote realtime needs customer',
      ['quote', 'create', '--realtime', '--currency', 'USDC', '--to', EA, '--send', '1'],
      '--customer',
      /is required/,
    ],
    [
      'quote platform fee non-USD',
      realtimeQuoteArgs('Customer:abc', '--currency', 'EUR', '--to', EA, '--send', '1', '--platform-fee', '1.00'),
      'platformFeeOverride',
      /USD/,
    ],
    ['quote id prefix', quoteArgs(Q, EA, '--send', '1'), 'source.accountId', /InternalAccount or ExternalAccount/],
    [
      'quote remittance length',
      quoteArgs(IA, EA, '--amount-minor', '5', '--remittance', 'x'.repeat(81)),
      'remittanceInformation',
      /80/,
    ],
    ['execute id prefix', ['quote', 'execute', EA], 'quoteId', /Quote/],
    ['fund amount', ['sandbox', 'fund', IA, '--amount', 'ten'], 'amount', /decimal/],
    ['fund minor', ['sandbox', 'fund', IA, '--amount-minor', '0'], 'amount', /positive/],
    ['send amount', ['sandbox', 'send', Q, '--amount-minor', '1.5'], 'currencyAmount', /whole number/],
    ['transactions since', ['transactions', 'list', '--since', 'yesterday'], 'startDate', /date/i],
    ['transactions customer', ['transactions', 'list', '--customer', 'Customer'], 'customerId', /Customer id/],
    ['internal currency', ['accounts', 'internal', 'list', '--currency', 'usd'], 'currency', /currency code/],
    ['transaction id', ['transactions', 'cancel', Q, '--yes'], 'transactionId', /Transaction/],
  ])('%s', async (_name, args, field, message) => {
    const before = sbx.requestCount()
    const r = await svc([...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout + r.stderr).toBe(2)
    const errors = r.json().error.details.errors as Array<{field: string; message: string}>
    const hit = errors.find((e) => e.field === field)
    expect(hit, JSON.stringify(errors)).toBeTruthy()
    expect(hit!.message).toMatch(message)
    expect(sbx.requestCount()).toBe(before)
  })

  it('the sandbox too refuses an individual EUR or wallet beneficiary without countryOfResidence (api-gaps 3.3); a business one needs none', async () => {
    const c = await approvedCustomer(sbx, ['EUR'])
    const eur = {
      customerId: c.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace'},
      },
    }
    const r = await api(sbx, 'POST', '/customers/external-accounts', eur)
    expect(r.status).toBe(400)
    expect(r.body.details.errors).toContainEqual({
      field: 'accountInfo.beneficiary.countryOfResidence',
      message: 'is required for an individual beneficiary of EUR_ACCOUNT',
    })
    const wallet = {
      customerId: c.id,
      currency: 'USDC',
      ownershipType: 'THIRD_PARTY',
      accountInfo: {
        accountType: 'SOLANA_WALLET',
        address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace'},
      },
    }
    expect(
      (await api(sbx, 'POST', '/customers/external-accounts', wallet)).body.details.errors.map(
        (e: {field: string}) => e.field,
      ),
    ).toEqual(['accountInfo.beneficiary.countryOfResidence'])
    const business = {
      ...eur,
      accountInfo: {
        ...eur.accountInfo,
        beneficiary: {beneficiaryType: 'BUSINESS', legalName: 'Analytical Engines GmbH'},
      },
    }
    expect((await api(sbx, 'POST', '/customers/external-accounts', business)).status).toBe(201)
    const other = await approvedCustomer(sbx, ['EUR'], {name: 'Grace Hopper'})
    const resident = {
      ...eur,
      customerId: other.id,
      accountInfo: {
        ...eur.accountInfo,
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', countryOfResidence: 'DE'},
      },
    }
    expect((await api(sbx, 'POST', '/customers/external-accounts', resident)).status).toBe(201)
  })

  it('names every bad field of an account at once', async () => {
    const before = sbx.requestCount()
    const r = await svc(
      add('--type', 'USD_ACCOUNT', '--account-number', 'abc', '--routing-number', '12', '--currency', 'EUR', '--json'),
      {env: sbx.env},
    )
    expect(r.code).toBe(2)
    expect(
      r
        .json()
        .error.details.errors.map((e: {field: string}) => e.field)
        .sort(),
    ).toEqual(['accountInfo.accountNumber', 'accountInfo.beneficiary', 'accountInfo.routingNumber', 'currency'])
    expect(sbx.requestCount()).toBe(before)
  })

  it('usage mistakes are exit 2 with nothing sent', async () => {
    const before = sbx.requestCount()
    for (const args of [
      ['quote', 'create', '--to', EA, '--send', '1'],
      [
        'quote',
        'create',
        '--from',
        IA,
        '--realtime',
        '--customer',
        'Customer:abc',
        '--currency',
        'USD',
        '--to',
        EA,
        '--send',
        '1',
      ],
      quoteArgs(IA, EA, '--send', '1', '--receive', '2'),
      quoteArgs(IA, EA, '--send', '1', '--wait'),
      ['sandbox', 'fund', IA],
      ['accounts', 'external', 'verify-ownership', EA, '--method', 'WALLET_SIGNATURE', '--wait'],
      ['accounts', 'external', 'submit-signature', EA],
    ]) {
      const r = await svc(args, {env: sbx.env})
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stdout).toBe('')
    }
    expect(sbx.requestCount()).toBe(before)
  })

  it('--dry-run prints the quote request with its Idempotency-Key and sends nothing', async () => {
    const before = sbx.requestCount()
    const r = await svc(
      quoteArgs(IA, EA, '--amount-minor', '2500', '--rail', 'SPEI', '--idempotency-key', 'ci-7', '--dry-run', '--json'),
      {env: sbx.env},
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({
      dryRun: true,
      request: {
        method: 'POST',
        headers: {'idempotency-key': 'ci-7', authorization: 'Basic [REDACTED]'},
        body: {
          source: {sourceType: 'ACCOUNT', accountId: IA},
          destination: {accountId: EA, paymentRail: 'SPEI'},
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 2500,
        },
      },
    })
    expect(r.stdout).not.toContain(sbx.env.SVC_CLIENT_SECRET)
    expect(sbx.requestCount()).toBe(before)
  })

  it.each([
    ['quote create --send (no currency look-up)', quoteArgs(IA, EA, '--send', '250.00'), null],
    ['quote create --receive', quoteArgs(IA, EA, '--receive', '4500.00'), null],
    ['quote send --send', ['quote', 'send', '--from', IA, '--to', EA, '--send', '10.00'], null],
    [
      'quote create --realtime --send',
      realtimeQuoteArgs('Customer:abc', '--currency', 'USDC', '--to', EA, '--send', '100'),
      {method: 'POST', path: '/quotes', body: {lockedCurrencyAmount: 100_000_000}},
    ],
    [
      'quote execute',
      ['quote', 'execute', Q, '--idempotency-key', 'ci-9'],
      {method: 'POST', path: `/quotes/${Q}/execute`, headers: {'idempotency-key': 'ci-9:execute'}},
    ],
    [
      'sandbox fund --amount-minor',
      ['sandbox', 'fund', IA, '--amount-minor', '10000'],
      {method: 'POST', path: `/sandbox/internal-accounts/${IA}/fund`, body: {amount: 10_000}},
    ],
    ['sandbox fund --amount', ['sandbox', 'fund', IA, '--amount', '100.00'], null],
    [
      'sandbox send --currency',
      ['sandbox', 'send', Q, '--currency', 'USDC'],
      {method: 'POST', path: '/sandbox/send', body: {quoteId: Q, currencyCode: 'USDC'}},
    ],
    ['sandbox send', ['sandbox', 'send', Q], null],
    [
      'transactions approve',
      ['transactions', 'approve', 'Transaction:55555555-5555-5555-5555-555555555555'],
      {method: 'POST', path: '/transactions/Transaction:55555555-5555-5555-5555-555555555555/approve'},
    ],
    [
      'transactions cancel',
      ['transactions', 'cancel', 'Transaction:55555555-5555-5555-5555-555555555555', '--reason', 'typo'],
      {
        method: 'POST',
        path: '/transactions/Transaction:55555555-5555-5555-5555-555555555555/cancel',
        body: {reason: 'typo'},
      },
    ],
    [
      'external delete',
      ['accounts', 'external', 'delete', EA],
      {method: 'DELETE', path: `/customers/external-accounts/${EA}`},
    ],
    [
      'external untrust',
      ['accounts', 'external', 'untrust', EA],
      {method: 'POST', path: `/customers/external-accounts/${EA}/untrust`},
    ],
    [
      'verify-ownership',
      ['accounts', 'external', 'verify-ownership', EA, '--method', 'LIVENESS'],
      {method: 'POST', path: `/customers/external-accounts/${EA}/challenge`, body: {method: 'LIVENESS'}},
    ],
    [
      'submit-signature',
      ['accounts', 'external', 'submit-signature', EA, '--signature', '0xabc'],
      {method: 'POST', path: `/customers/external-accounts/${EA}/verify`, body: {signature: '0xabc'}},
    ],
  ] as Array<[string, string[], {method: string; path: string; body?: object; headers?: object} | null]>)(
    '--dry-run sends nothing: %s',
    async (_name, args, expected) => {
      const before = sbx.requestCount()
      const r = await svc([...args, '--dry-run', '--json'], {env: sbx.env})
      expect(sbx.requestCount()).toBe(before)
      if (!expected) {
        // Real units need the account's (or quote's) currency, which only a request could tell.
        expect(r.code, r.stderr).toBe(2)
        expect(r.json().error.reason).toMatch(/--dry-run sends nothing/)
        expect(r.json().error.hint).toMatch(/--amount-minor|--currency/)
        return
      }
      expect(r.code, r.stderr).toBe(0)
      const {request} = r.json()
      expect(request.method).toBe(expected.method)
      expect(decodeURIComponent(new URL(request.url).pathname).replace(/^\/\d{4}-\d{2}-\d{2}/, '')).toBe(expected.path) // after the API version prefix
      if (expected.body) expect(request.body).toMatchObject(expected.body)
      if (expected.headers) expect(request.headers).toMatchObject(expected.headers)
    },
  )

  it('production: simulators are refused locally, and execute needs --yes off a TTY', async () => {
    const env = {...sbx.env, SVC_ENVIRONMENT: 'production'}
    const before = sbx.requestCount()
    for (const args of [
      ['sandbox', 'fund', IA, '--amount', '10.00'],
      ['sandbox', 'send', Q],
    ]) {
      const r = await svc([...args, '--json'], {env})
      expect(r.code).toBe(2)
      expect(r.json().error.reason).toMatch(/refused against production/)
    }
    expect(sbx.requestCount()).toBe(before)
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 10_000})
    const q = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
      destination: {destinationType: 'ACCOUNT', accountId: c.account('MXN')},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    })
    const r = await svc(['quote', 'execute', q.body.id, '--json'], {env})
    expect(r.code).toBe(3) // confirmation refused
    expect(r.json().error.hint).toMatch(/--yes/)
    expect(r.stderr).toContain('PRODUCTION')
    expect(sbx.emu.requests.some((x) => x.path.endsWith('/execute'))).toBe(false)
    expect(sbx.emu.db.get<{status: string}>('quotes', q.body.id)!.status).toBe('PENDING')
  })

  it('the sandbox itself refuses a bad quote or fund with every field listed, and changes nothing', async () => {
    const quotes = sbx.emu.db.count('quotes')
    const q = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT'},
      destination: {destinationType: 'ACCOUNT', accountId: EA, paymentRail: 'CARRIER_PIGEON'},
      lockedCurrencySide: 'BOTH',
      lockedCurrencyAmount: -5,
      remittanceInformation: 'x'.repeat(81),
    })
    expect(q.status).toBe(400)
    const fields = q.body.details.errors.map((e: {field: string}) => e.field)
    for (const f of [
      'source.accountId',
      'destination.paymentRail',
      'lockedCurrencySide',
      'lockedCurrencyAmount',
      'remittanceInformation',
    ])
      expect(fields).toContain(f)
    expect(sbx.emu.db.count('quotes')).toBe(quotes)
    const c = await approvedCustomer(sbx, ['USD'])
    const f = await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 1.5, extra: true})
    expect(f.status).toBe(400)
    expect(f.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual(['amount', 'extra'])
    expect(sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', c.account('USD'))!.balance.amount).toBe(0)
  })

  it('the sandbox itself refuses a bad account with every field listed, and stores nothing', async () => {
    const count = sbx.emu.db.count('externalAccounts')
    const r = await api(sbx, 'POST', '/customers/external-accounts', {
      customerId: customer,
      currency: 'MXN',
      accountInfo: {accountType: 'CLABE', clabeNumber: '002010077777777770'},
      extra: 1,
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'accountInfo.beneficiary',
      'accountInfo.clabeNumber',
      'extra',
    ])
    expect(sbx.emu.db.count('externalAccounts')).toBe(count)
  })
})
