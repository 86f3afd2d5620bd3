import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {SIMULATED_BANK_BALANCE} from '../../src/emulator/domain/transfers.js'
import {readContract} from '../helpers/contract.js'
import {api, approvedCustomer, balanceOf, imbalance, until, usdBankAccount} from '../helpers/money.js'
import {agentWith, call} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Issue 33: the last places the sandbox refused what the contract documents (D1-D5), and error
 * bodies both readings accept. Each is driven over HTTP (the contract's own example where it has
 * one) and through the CLI where the CLI exposes it.
 */
let sbx: TestSandbox
let doc: Record<string, any>
beforeAll(async () => {
  sbx = await startSandbox()
  doc = await readContract()
})
afterAll(async () => sbx.stop())

const fund = (accountId: string, amount: number) =>
  api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`, {amount})
const bank = async (customerId: string, accountNumber: string) => {
  const base = usdBankAccount(customerId)
  const r = await api(sbx, 'POST', '/customers/external-accounts', {
    ...base,
    accountInfo: {...base.accountInfo, accountNumber},
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

describe('D1: PATCH /config takes supportedCurrencies and cardTokenization2faConfig', () => {
  it("accepts the contract's own updatePlatformConfig example, and GET /config answers what it set", async () => {
    const example = structuredClone(doc.paths['/config'].patch.requestBody.content['application/json'].example)
    expect(Object.keys(example)).toEqual(expect.arrayContaining(['supportedCurrencies', 'cardTokenization2faConfig']))
    const r = await api(sbx, 'PATCH', '/config', example)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toMatchObject({
      umaDomain: 'mycompany.com',
      supportedCurrencies: example.supportedCurrencies,
      cardTokenization2faConfig: example.cardTokenization2faConfig,
      embeddedWalletConfig: example.embeddedWalletConfig,
    })
    expect((await api(sbx, 'GET', '/config')).body).toMatchObject({
      supportedCurrencies: example.supportedCurrencies,
      cardTokenization2faConfig: example.cardTokenization2faConfig,
    })
  })

  it('merges cardTokenization2faConfig field by field (nested email and sms too) and replaces supportedCurrencies whole, through `svc api`', async () => {
    await api(sbx, 'PATCH', '/config', {
      cardTokenization2faConfig: {displayName: 'Acme', email: {fromAddress: 'cards@acme.com', subject: 'Code'}},
    })
    const r = await sbx.run([
      'api',
      'PATCH',
      '/config',
      '--data',
      JSON.stringify({
        cardTokenization2faConfig: {email: {subject: 'Your code'}, sms: {templateSid: 'HJ1'}},
        supportedCurrencies: [
          {
            currencyCode: 'EUR',
            minAmount: 1,
            maxAmount: 500,
            requiredCounterpartyFields: [],
            enabledTransactionTypes: ['INCOMING'],
            providerRequiredCustomerFields: ['NATIONALITY'],
          },
        ],
      }),
    ])
    expect(r.code, r.stderr).toBe(0)
    const config = (await api(sbx, 'GET', '/config')).body
    expect(config.cardTokenization2faConfig).toMatchObject({
      displayName: 'Acme',
      email: {fromAddress: 'cards@acme.com', subject: 'Your code'},
      sms: {templateSid: 'HJ1'},
    })
    // Read-only fields a client echoes back are not kept: the Service sets them.
    expect(config.supportedCurrencies).toEqual([
      {
        currencyCode: 'EUR',
        minAmount: 1,
        maxAmount: 500,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING'],
      },
    ])
  })

  it('refuses bad currency configs and branding naming every field, and changes nothing', async () => {
    const before = (await api(sbx, 'GET', '/config')).body
    const r = await api(sbx, 'PATCH', '/config', {
      supportedCurrencies: [
        {
          currencyCode: 'USD',
          minAmount: 500,
          maxAmount: 100,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: [],
        },
        {
          currencyCode: 'USD',
          minAmount: 1,
          maxAmount: 2,
          requiredCounterpartyFields: [{name: 'SHOE_SIZE', mandatory: true}],
          enabledTransactionTypes: [],
        },
      ],
      cardTokenization2faConfig: {logoUrl: 'http://acme.com/logo.png', sms: {bodyText: 'x'.repeat(481)}},
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'cardTokenization2faConfig.logoUrl',
      'cardTokenization2faConfig.sms.bodyText',
      'supportedCurrencies.0.minAmount',
      'supportedCurrencies.1.requiredCounterpartyFields.0.name',
    ])
    const usd = {
      currencyCode: 'USD',
      minAmount: 1,
      maxAmount: 2,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: [],
    }
    const twice = await api(sbx, 'PATCH', '/config', {supportedCurrencies: [usd, usd]})
    expect([twice.status, twice.body.details.errors]).toEqual([
      400,
      [{field: 'supportedCurrencies.1.currencyCode', message: 'USD is listed twice'}],
    ])
    const after = (await api(sbx, 'GET', '/config')).body
    expect(after).toEqual(before)
  })
})

describe('D2: GET /transactions and GET /agents/me/transactions filter by sender and receiver account', () => {
  it('each filter keeps the payments whose source (sender) or destination (receiver) is that account, over HTTP, for an agent, and with `svc transactions list --sender/--receiver`', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const usd = c.account('USD')
    await fund(usd, 50_000)
    const a = await bank(c.id, '11223344')
    const b = await bank(c.id, '55667788')
    const out = async (dest: string, amount: number) => {
      const r = await api(sbx, 'POST', '/transfer-out', {
        source: {accountId: usd},
        destination: {accountId: dest},
        amount,
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body.id as string
    }
    const toA = await out(a, 1_000)
    const toB = await out(b, 2_000)
    const fromA = (
      await api(sbx, 'POST', '/transfer-in', {source: {accountId: a}, destination: {accountId: usd}, amount: 3_000})
    ).body.id as string
    const list = async (query: string) =>
      (await api(sbx, 'GET', `/transactions?${query}`)).body.data as Array<{id: string; type: string}>
    const ids = async (query: string) => (await list(query)).map((t) => t.id).sort()
    const q = (k: string, v: string) => `${k}=${encodeURIComponent(v)}`
    // The pull settles as a second, INCOMING transaction from A into the account: wait for it.
    const fromBankA = await until(
      () => list(q('senderAccountIdentifier', a)),
      (l) => l.length === 2,
    )
    const credit = fromBankA.find((t) => t.id !== fromA)!
    expect(credit.type).toBe('INCOMING')

    expect(await ids(q('senderAccountIdentifier', usd))).toEqual([toA, toB].sort())
    expect(await ids(q('receiverAccountIdentifier', a))).toEqual([toA])
    // Paid into the account: the pull from A and its credit, and the sandbox funding the test started with.
    const paidIn = await ids(q('receiverAccountIdentifier', usd))
    expect(paidIn).toHaveLength(3)
    expect(paidIn).toEqual(expect.arrayContaining([fromA, credit.id]))
    expect(await ids(`${q('senderAccountIdentifier', usd)}&${q('receiverAccountIdentifier', b)}`)).toEqual([toB])
    expect(await ids(`${q('senderAccountIdentifier', b)}&${q('customerId', c.id)}`)).toEqual([])
    const counted = await api(sbx, 'GET', `/transactions?${q('senderAccountIdentifier', usd)}&limit=1`)
    expect(counted.body).toMatchObject({totalCount: 2, hasMore: true})

    const agent = await agentWith(sbx, c.id, ['VIEW_TRANSACTIONS'])
    const mine = await call(sbx, agent.auth, 'GET', `/agents/me/transactions?${q('receiverAccountIdentifier', b)}`)
    expect(mine.status, JSON.stringify(mine.body)).toBe(200)
    expect(mine.body.data.map((t: {id: string}) => t.id)).toEqual([toB])

    const cli = async (...flags: string[]) =>
      (await sbx.json(['transactions', 'list', ...flags])).data.map((t: {id: string}) => t.id).sort()
    expect(await cli('--sender', usd, '--receiver', a)).toEqual([toA])
    expect(await cli('--sender', a)).toEqual([fromA, credit.id].sort())
    expect(await cli('--receiver', usd)).toEqual(paidIn)
  })
})

describe('D3: /transfer-out and /transfer-in without amount move the full balance', () => {
  it('transfer-out sends the whole available balance; transfer-in pulls the simulated bank balance', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const usd = c.account('USD')
    await fund(usd, 12_345)
    const ext = await bank(c.id, '99001122')
    const out = await api(sbx, 'POST', '/transfer-out', {source: {accountId: usd}, destination: {accountId: ext}})
    expect(out.status, JSON.stringify(out.body)).toBe(201)
    expect(out.body).toMatchObject({type: 'OUTGOING', sentAmount: {amount: 12_345}})
    expect(balanceOf(sbx, usd)).toBe(0)

    const pulled = await api(sbx, 'POST', '/transfer-in', {source: {accountId: ext}, destination: {accountId: usd}})
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(201)
    expect(pulled.body).toMatchObject({
      source: {accountId: ext},
      destination: {accountId: usd},
      sentAmount: {amount: SIMULATED_BANK_BALANCE},
    })
    expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
  })

  it('an empty account with no amount is refused naming amount, and nothing is stored', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const ext = await bank(c.id, '99001133')
    const before = sbx.emu.db.count('transactions')
    const r = await api(sbx, 'POST', '/transfer-out', {
      source: {accountId: c.account('USD')},
      destination: {accountId: ext},
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors).toEqual([
      {field: 'amount', message: `is needed: ${c.account('USD')} has no available balance to transfer`},
    ])
    expect(sbx.emu.db.count('transactions')).toBe(before)
  })
})

describe('D4: a real-time-funded quote without customerId', () => {
  it('is refused naming source.customerId (every payment here belongs to a customer: docs/sandbox.md), and no quote is stored', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const ext = await bank(c.id, '99001144')
    const before = sbx.emu.db.count('quotes')
    const r = await api(sbx, 'POST', '/quotes', {
      source: {sourceType: 'REALTIME_FUNDING', currency: 'USD'},
      destination: {destinationType: 'ACCOUNT', accountId: ext},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors).toEqual([{field: 'source.customerId', message: 'is required'}])
    expect(sbx.emu.db.count('quotes')).toBe(before)
  })
})

describe('D5 and error bodies', () => {
  it('a 405 carries an Allow header naming the methods the path takes', async () => {
    const auth = Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')
    const res = await fetch(`${sbx.url}/customers`, {method: 'PUT', headers: {authorization: `Basic ${auth}`}})
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST')
    expect(await res.json()).toMatchObject({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      details: {allowed: ['GET', 'HEAD', 'POST']},
    })
    const one = await fetch(`${sbx.url}/quotes/Quote:x/execute`, {
      method: 'GET',
      headers: {authorization: `Basic ${auth}`},
    })
    expect([one.status, one.headers.get('allow')]).toEqual([405, 'POST'])
  })

  it('every error body carries the spec reading {code, reason, details} and the contract reading {status, message}', async () => {
    const unknown = await api(sbx, 'GET', '/customers/Customer:nope')
    const bad = await api(sbx, 'POST', '/customers', {customerType: 'ROBOT'})
    const anon = await fetch(`${sbx.url}/customers`).then(async (r) => ({status: r.status, body: await r.json()}))
    for (const r of [unknown, bad, anon]) {
      expect(Object.keys(r.body).sort()).toEqual(['code', 'details', 'message', 'reason', 'status'])
      expect(r.body.status).toBe(r.status)
      expect(r.body.message).toBe(r.body.reason)
    }
    expect([unknown.status, bad.status, anon.status]).toEqual([404, 400, 401])
  })

  it("svc's own rendering of an error is unchanged: the reason on stderr, the spec's shape under --json", async () => {
    const r = await sbx.run(['customers', 'get', 'Customer:nope', '--json'])
    expect(r.code).not.toBe(0)
    const err = r.json().error
    expect(err).toMatchObject({code: 'USER_NOT_FOUND', status: 404, reason: 'Customer Customer:nope not found'})
    expect(err.message).toBeUndefined()
  })
})
