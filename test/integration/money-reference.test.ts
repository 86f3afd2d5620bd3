import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {api} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

describe('svc rates', () => {
  it('a currency pair: exact decimal strings, the amount a sending amount delivers, fees from the sandbox table', async () => {
    const r = await svc(['rates', '--from', 'USD', '--to', 'EUR', '--amount', '250.00', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    const rows = r.json()
    expect(rows).toHaveLength(1)
    // Default table: 0.92 EUR per USD; SEPA_INSTANT is priced at the DEFAULT rail fee (50 cents) plus 30 bps of 25000 (75).
    expect(rows[0]).toMatchObject({
      from: 'USD',
      to: 'EUR',
      rail: 'SEPA_INSTANT',
      sendingAmount: '250.00',
      sendingPerReceiving: '1.0869565',
      fees: {fixed: '0.50', total: '1.25'},
      receivingAmount: '228.85',
    })
    for (const k of ['sendingAmount', 'receivingAmount', 'sendingPerReceiving', 'minSendingAmount', 'maxSendingAmount'])
      expect(typeof rows[0][k]).toBe('string')
    // The sandbox answer is the published shape: integers in smallest units.
    const raw = await api(
      sbx,
      'GET',
      '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=MXN&sendingAmount=25000',
    )
    expect(raw.body.data.map((d: {destinationCurrency: {code: string}}) => d.destinationCurrency.code)).toEqual([
      'EUR',
      'MXN',
    ])
    expect(raw.body.data[0]).toMatchObject({
      sendingAmount: 25000,
      receivingAmount: 22885,
      exchangeRate: 1.0869565,
      destinationPaymentRail: 'SEPA_INSTANT',
    })
  })

  it('follows PATCH /config exchange rates at once, and lists every corridor from a source without --to', async () => {
    await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {MXN: '20'}}})
    const r = await svc(['rates', '--from', 'USD', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    const mxn = r.json().find((x: {to: string}) => x.to === 'MXN')
    expect(mxn).toMatchObject({sendingPerReceiving: '0.05', sendingAmount: '100.00', rail: 'SPEI'})
    expect(r.json().map((x: {to: string}) => x.to)).not.toContain('USD')
    const human = await svc(['rates', '--from', 'USD', '--to', 'MXN'], {env: sbx.env})
    expect(human.stdout).toMatch(/^FROM\tTO\tRAIL/m)
    expect(human.stdout).toMatch(/USD\tMXN\tSPEI\t100\.00\t/)
  })

  it.each([
    ['unknown currency', ['--from', 'XYZ'], 'sourceCurrency'],
    ['unknown destination', ['--from', 'USD', '--to', 'usd', '--to', 'QQQ'], 'destinationCurrency'],
    ['too many decimals', ['--from', 'USD', '--amount', '1.234'], 'sendingAmount'],
    ['bad minor units', ['--amount-minor', '12.5'], 'sendingAmount'],
  ])('refuses %s before sending (exit 2)', async (_n, args, field) => {
    const before = sbx.requestCount()
    const r = await svc(['rates', ...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })

  it('the sandbox names every bad query field', async () => {
    const r = await api(sbx, 'GET', '/exchange-rates?sourceCurrency=usd&sendingAmount=-1&foo=1')
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'foo',
      'sendingAmount',
      'sourceCurrency',
    ])
  })
})

describe('svc reference', () => {
  it('uma-providers: filters by country and currency, hides blocked providers on request, pages', async () => {
    const mx = await svc(['reference', 'uma-providers', '--country', 'mx', '--currency', 'MXN', '--json'], {
      env: sbx.env,
    })
    expect(mx.code, mx.stderr).toBe(0)
    expect(
      mx
        .json()
        .data.map((p: {name: string}) => p.name)
        .sort(),
    ).toEqual(['Pampa Pagos', 'Sandbox Counterparty'])
    const all = (await svc(['reference', 'uma-providers', '--all', '--json'], {env: sbx.env})).json()
    const allowed = (
      await svc(['reference', 'uma-providers', '--allowed-only', '--all', '--json'], {env: sbx.env})
    ).json()
    expect(allowed.data.length).toBeLessThan(all.data.length)
    expect(allowed.data.every((p: {allowListStatus: boolean}) => p.allowListStatus)).toBe(true)
    const page = (
      await svc(['reference', 'uma-providers', '--limit', '2', '--order', 'asc', '--json'], {env: sbx.env})
    ).json()
    expect(page).toMatchObject({hasMore: true})
    const next = (
      await svc(
        ['reference', 'uma-providers', '--limit', '2', '--order', 'asc', '--cursor', page.nextCursor, '--json'],
        {env: sbx.env},
      )
    ).json()
    expect(next.data[0].name).not.toBe(page.data[0].name)
    expect([...page.data, ...next.data].map((p: {name: string}) => p.name)).toEqual(
      all.data
        .map((p: {name: string}) => p.name)
        .reverse()
        .slice(0, 4),
    )
  })

  it('vasps: the vaspName directory, paged', async () => {
    const r = await svc(['reference', 'vasps', '--all', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().data.map((v: {vaspName: string}) => v.vaspName)).toContain('Kraken')
    const human = await svc(['reference', 'vasps', '--limit', '3'], {env: sbx.env})
    expect(human.stdout.trim().split('\n')).toHaveLength(4)
    expect(human.stderr).toMatch(/More: --cursor /)
  })

  it('banks: receiving institutions per corridor (GET /discoveries)', async () => {
    const r = await svc(['reference', 'banks', '--country', 'PH', '--currency', 'php', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toContainEqual({
      bankName: 'BPI',
      displayName: 'Bank of the Philippine Islands',
      country: 'PH',
      currency: 'PHP',
    })
    expect(r.json().every((b: {country: string}) => b.country === 'PH')).toBe(true)
  })

  it.each([
    ['banks', ['reference', 'banks', '--country', 'Philippines'], 'country'],
    ['uma-providers', ['reference', 'uma-providers', '--country', 'XX'], 'countryCode'],
    ['uma-providers currency', ['reference', 'uma-providers', '--currency', 'dollars'], 'currencyCode'],
  ])('%s refuses a bad filter before sending (exit 2)', async (_n, args, field) => {
    const before = sbx.requestCount()
    const r = await svc([...args, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
    expect(sbx.requestCount()).toBe(before)
  })
})
