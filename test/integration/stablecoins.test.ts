import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {achMintFlags, api, approvedCustomer, imbalance, until, usdBankAccount, wireBurnFlags} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let usd: string
/** The platform's own USD account (made by ENABLED): what a GRID_INTERNAL_ACCOUNT mint draws on. */
let fiat: string
let bank: string
let wallet: string
beforeAll(async () => {
  sbx = await startSandbox({stablecoinSettlementDelayMs: 100})
  // Setup, not under test: a funded USD internal account, a USD bank account, an L2 wallet.
  const c = await approvedCustomer(sbx, ['USD'])
  usd = c.account('USD')
  await api(sbx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 100_000})
  const add = async (body: unknown) => (await api(sbx, 'POST', '/customers/external-accounts', body)).body.id as string
  bank = await add(usdBankAccount(c.id))
  wallet = await add({
    customerId: c.id,
    currency: 'USDB',
    accountInfo: {accountType: 'L2_WALLET', address: 'sparkrt1' + 'q'.repeat(40)},
  })
})
afterAll(async () => sbx.stop())

const snapshot = () => ({
  coins: sbx.emu.db.count('stablecoins'),
  links: sbx.emu.db.count('stablecoinProviderAccounts'),
  ops: sbx.emu.db.count('stablecoinOperations'),
  accounts: sbx.emu.db
    .all<{id: string; balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts')
    .map((a) => [a.id, a.balance.amount, a.totalBalance.amount]),
})
const settled = async (id: string) =>
  expect(
    await until(
      () => sbx.emu.db.get<{status: string}>('stablecoinOperations', id)!.status,
      (s) => s === 'COMPLETED',
      20_000,
    ),
  ).toBe('COMPLETED')

describe('svc stablecoins', () => {
  let coin: {id: string; symbol: string}
  let link: string

  it('journey: link -> create -> request enablement (twice) -> operator ENABLED -> mint -> burn -> operations, with webhooks and the money invariant', async () => {
    const secret = 'provider_secret_456_do_not_print'
    const linked = await sbx.run(
      [
        'stablecoins',
        'provider-accounts',
        'link',
        '--api-client-id',
        'provider_client_123',
        '--secret-stdin',
        '--json',
        '--debug',
      ],
      {input: secret},
    )
    expect(linked.code, linked.stderr).toBe(0)
    expect(linked.stdout + linked.stderr).not.toContain(secret)
    link = linked.json().id
    expect(linked.json()).toMatchObject({provider: 'BRALE', providerEnvironment: 'SANDBOX', status: 'ACTIVE'})
    expect(JSON.stringify(sbx.emu.db.get('stablecoinProviderAccounts', link))).not.toContain(secret)
    expect((await sbx.json(['stablecoins', 'provider-accounts', 'list'])).data.map((a: {id: string}) => a.id)).toEqual([
      link,
    ])

    coin = await sbx.json([
      'stablecoins',
      'create',
      '--token',
      'ACME',
      '--network-token',
      'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
    ])
    expect(coin).toMatchObject({
      symbol: 'ACME',
      decimals: 6,
      baseCurrency: 'USD',
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      stablecoinProviderAccountId: link,
    })

    expect((await sbx.json(['stablecoins', 'request-enablement', coin.id])).gridOperationsStatus).toBe(
      'PENDING_APPROVAL',
    )
    expect((await sbx.json(['stablecoins', 'request-enablement', coin.id])).gridOperationsStatus).toBe(
      'PENDING_APPROVAL',
    ) // a repeat is accepted
    const enabled = await sbx.json(['sandbox', 'stablecoins', 'enablement', coin.id, '--status', 'ENABLED'])
    expect(enabled).toMatchObject({gridOperationsStatus: 'ENABLED', currency: 'ACME'})
    const platformAccount = (await api(sbx, 'GET', '/platform/internal-accounts?currency=ACME')).body.data[0]
    expect(platformAccount).toMatchObject({
      type: 'INTERNAL_CRYPTO',
      balance: {amount: 0, currency: {code: 'ACME', decimals: 6}},
    })
    fiat = (await api(sbx, 'GET', '/platform/internal-accounts?currency=USD')).body.data[0].id
    await api(sbx, 'POST', `/sandbox/internal-accounts/${fiat}/fund`, {amount: 100_000})

    // Mint 50.00 ACME funded from the USD internal account, into the platform's ACME account.
    const mint = await sbx.json([
      'stablecoins',
      'mint',
      coin.id,
      '--amount',
      '50',
      '--funding',
      'GRID_INTERNAL_ACCOUNT',
      '--funding-account',
      fiat,
      '--to',
      platformAccount.id,
    ])
    expect(mint).toMatchObject({operationType: 'MINT', status: 'PROCESSING', amount: '50000000', stablecoinId: coin.id})
    expect(sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', fiat)!.balance.amount).toBe(95_000) // held at once
    await settled(mint.id)
    expect(
      sbx.emu.db.get<{balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts', fiat),
    ).toMatchObject({balance: {amount: 95_000}, totalBalance: {amount: 95_000}})
    expect(sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', platformAccount.id)!.balance.amount).toBe(
      50_000_000,
    )
    // A mint to an external L2 wallet funded by ACH never touches the platform's books.
    const toWallet = await sbx.json(['stablecoins', 'mint', coin.id, ...achMintFlags(bank, wallet)])
    await settled(toWallet.id)

    const burn = await sbx.json([
      'stablecoins',
      'burn',
      coin.id,
      '--amount',
      '20.25',
      '--source',
      'GRID_INTERNAL_ACCOUNT',
      '--source-account',
      platformAccount.id,
      '--to',
      bank,
      '--rail',
      'ACH_CREDIT',
    ])
    expect(burn).toMatchObject({
      operationType: 'BURN',
      status: 'PROCESSING',
      amount: '20250000',
      estimatedDelivery: {rail: 'ACH_CREDIT', amount: '2025', currency: 'USD'},
    })
    await settled(burn.id)
    expect(
      sbx.emu.db.get<{totalBalance: {amount: number}}>('internalAccounts', platformAccount.id)!.totalBalance.amount,
    ).toBe(29_750_000)
    const fromWallet = await sbx.json(['stablecoins', 'burn', coin.id, ...wireBurnFlags(bank)])
    expect(fromWallet).toMatchObject({
      status: 'PENDING_FUNDING',
      fundingInstructions: {rail: 'L2', network: 'L2', valueType: 'ACME'},
    })
    await settled(fromWallet.id)
    expect(await imbalance(sbx)).toMatchObject({USD: 0, ACME: 0})
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)

    const ops = await sbx.json(['stablecoins', 'operations', 'list', coin.id])
    expect(ops.data.map((o: {id: string}) => o.id)).toEqual([fromWallet.id, burn.id, toWallet.id, mint.id]) // most recent first
    expect(ops.data.every((o: {status: string}) => o.status === 'COMPLETED')).toBe(true)
    expect((await sbx.json(['stablecoins', 'operations', 'list', coin.id, '--type', 'MINT'])).data).toHaveLength(2)
    expect(await sbx.json(['stablecoins', 'operations', 'get', burn.id])).toMatchObject({
      id: burn.id,
      status: 'COMPLETED',
      providerStatus: 'complete',
    })

    // Issue 21 R6: no event type outside the contract; a platform balance that moves is INTERNAL_ACCOUNT.BALANCE_UPDATED
    // with the full account (hold at creation, then settlement). Off-book operations (toWallet, fromWallet) send none.
    const all = sbx.emu.webhooks.stored().map((e) => e.event)
    expect(all.filter((e) => e.type.startsWith('STABLECOIN'))).toEqual([])
    const moves = all
      .filter((e) => e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')
      .map((e) => e.data as {id: string; balance: {amount: number}; totalBalance: {amount: number}})
    expect(
      moves.map(
        (a) =>
          `${a.id === fiat ? 'USD' : a.id === platformAccount.id ? 'ACME' : a.id} ${a.balance.amount}/${a.totalBalance.amount}`,
      ),
    ).toEqual([
      'USD 100000/100000', // the platform's own USD funded (sandbox)
      'USD 95000/100000', // mint: 50.00 USD held
      'USD 95000/95000', // mint settled: paid out
      'ACME 50000000/50000000', // minted into the platform's account
      'ACME 29750000/50000000', // burn: 20.25 ACME held
      'ACME 29750000/29750000', // burn settled
    ])
    expect(JSON.stringify(all)).not.toContain('_ledger')
  })

  it("issue 29 F3: a GRID_INTERNAL_ACCOUNT mint draws only on the platform's own fiat account: a customer's account is 400 naming the field, nothing held", async () => {
    const acme = (await api(sbx, 'GET', '/platform/internal-accounts?currency=ACME')).body.data[0].id
    const before = snapshot()
    const customers = sbx.emu.db.count('transactions')
    const r = await sbx.run([
      'stablecoins',
      'mint',
      coin.id,
      '--amount',
      '10',
      '--funding',
      'GRID_INTERNAL_ACCOUNT',
      '--funding-account',
      usd,
      '--to',
      acme,
      '--json',
    ])
    expect(r.code, r.stdout).toBe(2)
    expect(errorOf(r)).toMatchObject({status: 400, code: 'INVALID_INPUT'})
    expect(errorOf(r).details.errors).toEqual([
      {
        field: 'fundingSource.accountId',
        message: `must be the platform's own USD internal account (${fiat}), not an account of ${
          sbx.emu.db.get<{customerId: string}>('internalAccounts', usd)!.customerId
        }`,
      },
    ])
    expect(snapshot()).toEqual(before)
    expect(sbx.emu.db.count('transactions')).toBe(customers)
    // The platform's account of another currency is refused the same way.
    const wrongCurrency = await api(
      sbx,
      'POST',
      `/stablecoins/${coin.id}/mints`,
      {
        amount: '10000000',
        fundingSource: {type: 'GRID_INTERNAL_ACCOUNT', accountId: acme},
        destination: {accountId: acme},
      },
      {'idempotency-key': 'f3-wrong-currency'},
    )
    expect(wrongCurrency.status).toBe(400)
    expect(wrongCurrency.body.details.errors[0].field).toBe('fundingSource.accountId')
    expect(snapshot()).toEqual(before)
  })

  it('enablement: operator states cannot be requested (409, exit 6); the operator cannot skip the request', async () => {
    const other = await sbx.json([
      'stablecoins',
      'create',
      '--token',
      'BETA',
      '--network-token',
      'btkn1betabetabetabeta0001',
    ])
    const operatorFirst = await sbx.run([
      'sandbox',
      'stablecoins',
      'enablement',
      other.id,
      '--status',
      'ENABLED',
      '--json',
    ])
    expect(operatorFirst.code).toBe(6)
    expect(errorOf(operatorFirst).code).toBe('INVALID_STATE_TRANSITION')
    await sbx.json(['stablecoins', 'request-enablement', other.id])
    for (const status of ['ENABLING', 'ENABLED', 'DISABLED']) {
      await sbx.json(['sandbox', 'stablecoins', 'enablement', other.id, '--status', status])
      const before = sbx.emu.db.get('stablecoins', other.id)
      const r = await sbx.run(['stablecoins', 'request-enablement', other.id, '--json'])
      expect(r.code, status).toBe(6)
      expect(errorOf(r)).toMatchObject({
        status: 409,
        code: 'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE',
        details: {gridOperationsStatus: status},
      })
      expect(errorOf(r).hint).toMatch(/driven by the operator/)
      expect(sbx.emu.db.get('stablecoins', other.id)).toEqual(before)
    }
  })

  it('refusals: uniqueness (409), selection among several links, unrepresentable amounts, not enabled, insufficient funds; state unchanged', async () => {
    const cases: Array<{args: string[]; exit: number; status: number; code: string; hint: RegExp}> = [
      {
        args: ['stablecoins', 'create', '--token', 'ACME', '--network-token', 'btkn1anotheranother0001'],
        exit: 6,
        status: 409,
        code: 'STABLECOIN_SYMBOL_ALREADY_EXISTS',
        hint: /another stablecoin symbol/,
      },
      {
        args: ['stablecoins', 'create', '--token', 'USDC', '--network-token', 'btkn1anotheranother0002'],
        exit: 6,
        status: 409,
        code: 'STABLECOIN_SYMBOL_ALREADY_EXISTS',
        hint: /another stablecoin symbol/,
      },
      {
        args: [
          'stablecoins',
          'create',
          '--token',
          'GAMMA',
          '--network-token',
          'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
        ],
        exit: 6,
        status: 409,
        code: 'STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS',
        hint: /another token identifier/,
      },
      {
        args: ['stablecoins', 'mint', coin.id, '--amount-minor', '1234567', '--funding', 'WIRE', '--to', wallet],
        exit: 2,
        status: 400,
        code: 'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
        hint: /whole number of fiat cents/,
      },
      {
        args: [
          'stablecoins',
          'mint',
          coin.id,
          '--amount-minor',
          '99999999999999990000',
          '--funding',
          'WIRE',
          '--to',
          wallet,
        ],
        exit: 2,
        status: 400,
        code: 'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
        hint: /whole number of fiat cents/,
      },
      {
        args: [
          'stablecoins',
          'mint',
          coin.id,
          '--amount',
          '5000',
          '--funding',
          'GRID_INTERNAL_ACCOUNT',
          '--funding-account',
          fiat,
          '--to',
          wallet,
        ],
        exit: 1,
        status: 400,
        code: 'INSUFFICIENT_FUNDS',
        hint: /Fund the source account/,
      },
      {
        args: ['stablecoins', 'mint', coin.id, '--amount', '1', '--funding', 'WIRE', '--to', bank],
        exit: 1,
        status: 400,
        code: 'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
        hint: /cannot be used/,
      },
      {
        args: ['stablecoins', 'get', 'Stablecoin:00000000-0000-0000-0000-000000000000'],
        exit: 5,
        status: 404,
        code: 'STABLECOIN_NOT_FOUND',
        hint: /Check the stablecoin id/,
      },
      {
        args: ['stablecoins', 'operations', 'get', 'StablecoinOperation:nope'],
        exit: 5,
        status: 404,
        code: 'STABLECOIN_OPERATION_NOT_FOUND',
        hint: /Check the stablecoin operation id/,
      },
    ]
    for (const c of cases) {
      const before = snapshot()
      const r = await sbx.run([...c.args, '--json'])
      expect(r.code, `${c.args.join(' ')}: ${r.stdout}`).toBe(c.exit)
      expect(errorOf(r)).toMatchObject({status: c.status, code: c.code})
      expect(errorOf(r).hint).toMatch(c.hint)
      expect(snapshot()).toEqual(before)
    }
    // Not enabled: a coin short of ENABLED cannot reach internal accounts.
    const beta = (await sbx.json(['stablecoins', 'list', '--operations-status', 'DISABLED'])).data[0]
    const before = snapshot()
    const notEnabled = await sbx.run([
      'stablecoins',
      'mint',
      beta.id,
      '--amount',
      '1',
      '--funding',
      'WIRE',
      '--to',
      usd,
      '--json',
    ])
    expect(notEnabled.code).toBe(6)
    expect(errorOf(notEnabled)).toMatchObject({status: 400, code: 'STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED'})
    expect(snapshot()).toEqual(before)

    // A second active link: registering without choosing is refused; choosing works.
    const second = await sbx.json(
      ['stablecoins', 'provider-accounts', 'link', '--api-client-id', 'provider_client_999', '--secret-stdin'],
      {input: 'another-secret'},
    )
    const n = sbx.emu.db.count('stablecoins')
    const choose = await sbx.run([
      'stablecoins',
      'create',
      '--token',
      'DELTA',
      '--network-token',
      'btkn1deltadeltadelta0001',
      '--json',
    ])
    expect(choose.code).toBe(2)
    expect(errorOf(choose)).toMatchObject({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      details: {stablecoinProviderAccountIds: [link, second.id]},
    })
    expect(errorOf(choose).hint).toMatch(/--provider-account/)
    expect(sbx.emu.db.count('stablecoins')).toBe(n)
    expect(
      await sbx.json([
        'stablecoins',
        'create',
        '--token',
        'DELTA',
        '--network-token',
        'btkn1deltadeltadelta0001',
        '--provider-account',
        second.id,
      ]),
    ).toMatchObject({stablecoinProviderAccountId: second.id})
    expect(await imbalance(sbx)).toMatchObject({USD: 0, ACME: 0})
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })

  it('a retried mint with the same Idempotency-Key replays the operation and holds once; another body with that key is refused', async () => {
    const platformAccount = (await api(sbx, 'GET', '/platform/internal-accounts?currency=ACME')).body.data[0].id
    const args = [
      'stablecoins',
      'mint',
      coin.id,
      '--funding',
      'GRID_INTERNAL_ACCOUNT',
      '--funding-account',
      fiat,
      '--to',
      platformAccount,
      '--idempotency-key',
      'ci-run-7',
    ]
    const held = () => sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', fiat)!.balance.amount
    const before = held()
    const first = await sbx.json([...args, '--amount', '1'])
    const again = await sbx.json([...args, '--amount', '1'])
    expect(again.id).toBe(first.id)
    expect(held()).toBe(before - 100)
    const ops = sbx.emu.db.count('stablecoinOperations')
    const other = await sbx.run([...args, '--amount', '2', '--json'])
    expect(other.code).toBe(6)
    expect(errorOf(other)).toMatchObject({status: 409, code: 'DUPLICATE_PAY_REQUEST'})
    expect(sbx.emu.db.count('stablecoinOperations')).toBe(ops)
    expect(held()).toBe(before - 100)
    await settled(first.id)
    expect(Object.values(await imbalance(sbx)).every((v) => v === 0)).toBe(true)
  })

  it('a link the provider revoked refuses mints and registrations (exit 6); the other link is then the only choice', async () => {
    const links = (await sbx.json(['stablecoins', 'provider-accounts', 'list'])).data as Array<{id: string}>
    const second = links.find((l) => l.id !== link)!.id
    const delta = (await sbx.json(['stablecoins', 'list'])).data.find((c: {symbol: string}) => c.symbol === 'DELTA')
    expect((await sbx.json(['sandbox', 'stablecoins', 'provider-account', second, '--status', 'REVOKED'])).status).toBe(
      'REVOKED',
    )
    const before = snapshot()
    const mint = await sbx.run([
      'stablecoins',
      'mint',
      delta.id,
      '--amount',
      '1',
      '--funding',
      'WIRE',
      '--to',
      wallet,
      '--json',
    ])
    expect(mint.code).toBe(6)
    expect(errorOf(mint)).toMatchObject({status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED'})
    expect(errorOf(mint).hint).toMatch(/relink/)
    const register = await sbx.run([
      'stablecoins',
      'create',
      '--token',
      'EPSI',
      '--network-token',
      'btkn1epsilonepsilon0001',
      '--provider-account',
      second,
      '--json',
    ])
    expect(register.code).toBe(6)
    expect(errorOf(register).code).toBe('STABLECOIN_PROVIDER_ACCOUNT_REVOKED')
    expect(snapshot()).toEqual(before)
    expect(
      await sbx.json(['stablecoins', 'create', '--token', 'EPSI', '--network-token', 'btkn1epsilonepsilon0001']),
    ).toMatchObject({stablecoinProviderAccountId: link})
  })

  it('bad input is refused before any request, naming each field (exit 2)', async () => {
    const before = {requests: sbx.requestCount(), ...snapshot()}
    const cases: Array<[string[], string[]]> = [
      [
        ['stablecoins', 'create', '--token', 'acme!', '--network-token', 'x'],
        ['providerTokenIdentifier', 'networkTokenIdentifier'],
      ],
      [
        [
          'stablecoins',
          'create',
          '--token',
          'ABC',
          '--network-token',
          'btkn1abcdefghijk',
          '--provider-account',
          'Stablecoin:x',
        ],
        ['stablecoinProviderAccountId'],
      ],
      [['stablecoins', 'mint', coin.id, '--amount-minor', '12.5', '--funding', 'WIRE', '--to', wallet], ['amount']],
      [
        ['stablecoins', 'mint', coin.id, '--amount-minor', '100', '--funding', 'ACH_DEBIT', '--to', 'Customer:abc'],
        ['fundingSource.externalAccountId', 'destination.accountId'],
      ],
      [
        [
          'stablecoins',
          'burn',
          coin.id,
          '--amount-minor',
          '100',
          '--source',
          'GRID_INTERNAL_ACCOUNT',
          '--to',
          'InternalAccount:abc',
          '--rail',
          'WIRE',
        ],
        ['source.accountId', 'destination.externalAccountId'],
      ],
      [
        ['stablecoins', 'mint', 'Quote:abc', '--amount-minor', '100', '--funding', 'WIRE', '--to', wallet],
        ['stablecoinId'],
      ],
      [['stablecoins', 'provider-accounts', 'link', '--api-client-id', 'x', '--secret-stdin'], ['apiClientSecret']],
    ]
    for (const [args, fields] of cases) {
      const r = await sbx.run([...args, '--json'], {input: ''})
      expect(r.code, args.join(' ')).toBe(2)
      const e = errorOf(r)
      expect(e.code, args.join(' ')).toBe('INVALID_INPUT')
      expect((e.details.errors as Array<{field: string}>).map((x) => x.field).sort(), args.join(' ')).toEqual(
        fields.sort(),
      )
    }
    const r = await sbx.run([
      'stablecoins',
      'mint',
      coin.id,
      '--amount',
      '1.0000001',
      '--funding',
      'WIRE',
      '--to',
      wallet,
      '--json',
    ])
    expect(r.code).toBe(2) // more decimals than the coin has: refused after reading the coin, before the mint
    expect(errorOf(r).details.errors).toEqual([
      expect.objectContaining({field: 'amount', message: expect.stringMatching(/6 decimals/)}),
    ])
    expect(sbx.requestCount()).toBe(before.requests + 1) // that one GET
    const {requests: _r, ...state} = before
    expect(snapshot()).toEqual(state)
  })
})
