import {request} from 'node:http'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, approvedCustomer, balanceOf, beneficiary, clabeEnding, until} from '../helpers/money.js'
import {agentWith, call, tokenWith} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
type Customer = Awaited<ReturnType<typeof approvedCustomer>> & {clabe: string}
let a: Customer
let b: Customer
let platformAccount: string
const ALL_AGENT = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
]

async function customer(name: string): Promise<Customer> {
  const c = await approvedCustomer(sbx, ['USD', 'MXN'], {name})
  expect(
    (await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 1_000_000})).status,
  ).toBe(200)
  const ext = await api(sbx, 'POST', '/customers/external-accounts', {
    customerId: c.id,
    currency: 'MXN',
    accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
  })
  expect(ext.status).toBe(201)
  return {...c, clabe: ext.body.id}
}

/** The platform's own internal account, as the probe made it: a stablecoin enabled for the platform, then funded (by a mint paid from the platform's own USD). */
async function fundedPlatformAccount(): Promise<string> {
  const key = (k: string) => ({'idempotency-key': k})
  const link = await api(
    sbx,
    'POST',
    '/stablecoin-provider-accounts',
    {provider: 'BRALE', apiClientId: 'client_1', apiClientSecret: 'secret_1'},
    key('link-1'),
  )
  const coin = await api(
    sbx,
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
  expect(coin.status, JSON.stringify(coin.body)).toBe(201)
  await api(sbx, 'POST', `/stablecoins/${coin.body.id}/enablement`)
  expect((await api(sbx, 'POST', `/sandbox/stablecoins/${coin.body.id}/enablement`, {status: 'ENABLED'})).status).toBe(
    200,
  )
  expect((await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {ACME: '1'}}})).status).toBe(200)
  const id = (await api(sbx, 'GET', '/platform/internal-accounts?currency=ACME')).body.data[0].id as string
  // A mint spends the platform's own fiat (issue 29 F3): the operator funds it first.
  const fiat = (await api(sbx, 'GET', '/platform/internal-accounts?currency=USD')).body.data[0].id as string
  expect((await api(sbx, 'POST', `/sandbox/internal-accounts/${fiat}/fund`, {amount: 1_000_000})).status).toBe(200)
  const mint = await api(
    sbx,
    'POST',
    `/stablecoins/${coin.body.id}/mints`,
    {
      amount: '500000000',
      fundingSource: {type: 'GRID_INTERNAL_ACCOUNT', accountId: fiat},
      destination: {accountId: id},
    },
    key('mint-1'),
  )
  expect(mint.status, JSON.stringify(mint.body)).toBe(201)
  expect(
    await until(
      () => balanceOf(sbx, id),
      (n) => n === 500_000_000,
      10_000,
    ),
  ).toBe(500_000_000)
  return id
}

beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 10_000})
  a = await customer('Ada Lovelace')
  b = await customer('Grace Hopper')
  platformAccount = await fundedPlatformAccount()
})
afterAll(async () => sbx.stop())

/** Everything that money and payments leave behind: every internal account's balances, and the counts of what a payment creates. */
function ledger() {
  const db = sbx.emu.db
  const accounts = Object.fromEntries(
    db
      .all<{id: string; balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts')
      .map((x) => [x.id, [x.balance.amount, x.totalBalance.amount]]),
  )
  return {
    accounts,
    quotes: db.count('quotes'),
    transactions: db.count('transactions'),
    actions: db.count('agentActions'),
  }
}
const quoteBody = (source: Record<string, unknown>, destination: string, amount = 10_000) => ({
  source: {sourceType: 'ACCOUNT', ...source},
  destination: {destinationType: 'ACCOUNT', accountId: destination},
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
})

describe('escalations from issue 18: each is refused, and nothing is stored or moved', () => {
  it("an agent quoting from the platform's own account (naming its customer as source.customerId) is refused; so is executing a platform-made quote from it", async () => {
    const agent = await agentWith(sbx, a.id, ALL_AGENT)
    const before = ledger()
    expect(balanceOf(sbx, platformAccount)).toBe(500_000_000)
    const q = await call(
      sbx,
      agent.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: platformAccount, customerId: a.id}, a.account('USD'), 10_000_000),
    )
    expect(q.status, JSON.stringify(q.body)).toBe(403)
    expect(q.body).toMatchObject({code: 'FORBIDDEN', details: {accountId: platformAccount}})
    expect(q.body.reason).toMatch(/does not belong to/)
    expect(ledger()).toEqual(before)

    // The platform may draw on its own account for a customer; the agent still may not execute that quote.
    const made = await api(
      sbx,
      'POST',
      '/quotes',
      quoteBody({accountId: platformAccount, customerId: a.id}, a.account('USD'), 10_000_000),
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const afterQuote = ledger()
    const ran = await call(sbx, agent.auth, 'POST', `/agents/me/quotes/${made.body.id}/execute`)
    expect(ran.status).toBe(403)
    expect(ran.body).toMatchObject({code: 'FORBIDDEN', details: {accountId: platformAccount}})
    expect(ledger()).toEqual(afterQuote)
    expect(balanceOf(sbx, platformAccount)).toBe(500_000_000)
    expect(sbx.emu.db.get<{status: string}>('quotes', made.body.id)!.status).toBe('PENDING')

    // The control: from its customer's own account the same agent quotes.
    const own = await call(
      sbx,
      agent.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: a.account('USD')}, a.clabe),
    )
    expect(own.status, JSON.stringify(own.body)).toBe(201)
  })

  it("an agent paying into another customer's internal (or external) account is refused", async () => {
    const agent = await agentWith(sbx, a.id, ALL_AGENT)
    const before = ledger()
    // Internal or external, the destination is refused by the agent's scope (the quote rules alone would have paid the internal ones).
    for (const destination of [b.account('USD'), b.account('MXN'), b.clabe]) {
      const q = await call(
        sbx,
        agent.auth,
        'POST',
        '/agents/me/quotes',
        quoteBody({accountId: a.account('USD')}, destination),
      )
      expect(q, destination).toMatchObject({status: 403, body: {code: 'FORBIDDEN', details: {accountId: destination}}})
    }
    // Nor from another customer's account.
    const from = await call(
      sbx,
      agent.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: b.account('USD')}, a.clabe),
    )
    expect(from).toMatchObject({status: 403, body: {code: 'FORBIDDEN', details: {accountId: b.account('USD')}}})
    expect(ledger()).toEqual(before)
  })

  it('the policy is checked again at execute: allowed accounts narrowed, or the permission taken away, after the quote', async () => {
    const agent = await agentWith(sbx, a.id, ALL_AGENT, {accountRestrictions: {allowedAccountIds: [a.account('USD')]}})
    const q = await call(
      sbx,
      agent.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: a.account('USD')}, a.clabe),
    )
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    const before = ledger()
    const narrowed = await api(sbx, 'PATCH', `/agents/${agent.id}/policy`, {
      accountRestrictions: {allowedAccountIds: [a.account('MXN')]},
    })
    expect(narrowed.status).toBe(200)
    const ran = await call(sbx, agent.auth, 'POST', `/agents/me/quotes/${q.body.id}/execute`)
    expect(ran).toMatchObject({status: 403, body: {code: 'FORBIDDEN', details: {accountId: a.account('USD')}}})
    expect(ran.body.reason).toMatch(/not among the accounts/)
    expect(ledger()).toEqual(before)

    await api(sbx, 'PATCH', `/agents/${agent.id}/policy`, {
      accountRestrictions: {allowedAccountIds: [a.account('USD')]},
      permissions: ['CREATE_QUOTES'],
    })
    const noPermission = await call(sbx, agent.auth, 'POST', `/agents/me/quotes/${q.body.id}/execute`)
    expect(noPermission).toMatchObject({
      status: 403,
      body: {code: 'FORBIDDEN', details: {permission: 'EXECUTE_QUOTES', operation: 'agentExecuteQuote'}},
    })
    expect(ledger()).toEqual(before)
    expect(sbx.emu.db.get<{status: string}>('quotes', q.body.id)!.status).toBe('PENDING')

    // Given back, it runs: the refusals were the policy's, not the quote's.
    await api(sbx, 'PATCH', `/agents/${agent.id}/policy`, {permissions: ALL_AGENT})
    const ok = await call(sbx, agent.auth, 'POST', `/agents/me/quotes/${q.body.id}/execute`)
    expect(ok).toMatchObject({status: 200, body: {status: 'APPROVED'}})
  })

  it("an Idempotency-Key belongs to its principal: agent B (or another token) reusing A's key gets its own answer, never A's", async () => {
    const agentA = await agentWith(sbx, a.id, ALL_AGENT)
    const agentA2 = await agentWith(sbx, a.id, ALL_AGENT)
    const agentB = await agentWith(sbx, b.id, ALL_AGENT)
    const key = {'idempotency-key': 'shared-key-1'}
    const qa = await call(
      sbx,
      agentA.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: a.account('USD')}, a.clabe),
      key,
    )
    expect(qa.status).toBe(201)
    expect(
      (
        await call(
          sbx,
          agentA.auth,
          'POST',
          '/agents/me/quotes',
          quoteBody({accountId: a.account('USD')}, a.clabe),
          key,
        )
      ).body.id,
    ).toBe(qa.body.id) // A's own replay

    // B, same key, same body: B's own request, refused by B's scope (A's accounts), not A's quote.
    const sameBody = await call(
      sbx,
      agentB.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: a.account('USD')}, a.clabe),
      key,
    )
    expect(sameBody.status).toBe(403)
    expect(JSON.stringify(sameBody.body)).not.toContain(qa.body.id)
    // B, same key, its own body: a new quote of B's (no 409 for "another body": the key is not A's to B).
    const own = await call(
      sbx,
      agentB.auth,
      'POST',
      '/agents/me/quotes',
      quoteBody({accountId: b.account('USD')}, b.clabe),
      key,
    )
    expect(own.status).toBe(201)
    expect(own.body.id).not.toBe(qa.body.id)

    // Two agents of one customer: A executes with the key; A2 re-sending it is a request of its own (the quote is no longer PENDING), not A's action.
    const ran = await call(sbx, agentA.auth, 'POST', `/agents/me/quotes/${qa.body.id}/execute`, undefined, key)
    expect(ran).toMatchObject({status: 200, body: {agentId: agentA.id, status: 'APPROVED'}})
    const afterRun = ledger()
    const replayed = await call(sbx, agentA2.auth, 'POST', `/agents/me/quotes/${qa.body.id}/execute`, undefined, key)
    expect(replayed.status).toBeGreaterThanOrEqual(400)
    expect(replayed.body.id).toBeUndefined()
    expect(JSON.stringify(replayed.body)).not.toContain(ran.body.id)
    expect(ledger()).toEqual(afterRun)

    // Platform tokens too: a second TRANSACT token with the first one's key makes its own quote.
    const t1 = await tokenWith(sbx, ['TRANSACT'])
    const t2 = await tokenWith(sbx, ['TRANSACT'])
    const body = quoteBody({accountId: a.account('USD')}, a.clabe)
    const first = await call(sbx, t1.auth, 'POST', '/quotes', body, {'idempotency-key': 'shared-key-2'})
    const second = await call(sbx, t2.auth, 'POST', '/quotes', body, {'idempotency-key': 'shared-key-2'})
    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.body.id).not.toBe(first.body.id)
    expect((await call(sbx, t1.auth, 'POST', '/quotes', body, {'idempotency-key': 'shared-key-2'})).body.id).toBe(
      first.body.id,
    )
  })

  it('a TRANSACT token can neither mint a MANAGE token nor patch config (legacySignatures included)', async () => {
    const t = await tokenWith(sbx, ['TRANSACT'])
    const tokens = sbx.emu.db.count('apiTokens')
    const config = JSON.stringify(sbx.emu.db.get('config', 'platform'))
    const mint = await call(sbx, t.auth, 'POST', '/tokens', {name: 'escalate', permissions: ['MANAGE']})
    expect(mint).toMatchObject({
      status: 403,
      body: {code: 'FORBIDDEN', details: {operation: 'createToken', required: ['MANAGE'], granted: ['TRANSACT']}},
    })
    for (const patch of [{sandbox: {legacySignatures: true}}, {webhookEndpoint: 'https://evil.example.com/hook'}]) {
      const r = await call(sbx, t.auth, 'PATCH', '/config', patch)
      expect(r).toMatchObject({status: 403, body: {code: 'FORBIDDEN', details: {operation: 'updatePlatformConfig'}}})
    }
    const revoke = await call(sbx, t.auth, 'DELETE', `/tokens/${t.id}`)
    expect(revoke.status).toBe(403)
    expect(sbx.emu.db.count('apiTokens')).toBe(tokens)
    expect(JSON.stringify(sbx.emu.db.get('config', 'platform'))).toBe(config)
    expect(sbx.emu.settings().legacySignatures).toBe(false)
    // It still reads what it pays with.
    expect((await call(sbx, t.auth, 'GET', '/config')).status).toBe(200)
  })

  it('a MANAGE token can neither create nor execute a quote, nor move money', async () => {
    const m = await tokenWith(sbx, ['MANAGE'])
    const existing = await api(sbx, 'POST', '/quotes', quoteBody({accountId: a.account('USD')}, a.clabe))
    const before = ledger()
    const create = await call(sbx, m.auth, 'POST', '/quotes', {
      ...quoteBody({accountId: a.account('USD')}, a.clabe),
      immediatelyExecute: true,
    })
    expect(create).toMatchObject({
      status: 403,
      body: {code: 'FORBIDDEN', details: {operation: 'createQuote', required: ['TRANSACT'], granted: ['MANAGE']}},
    })
    const execute = await call(sbx, m.auth, 'POST', `/quotes/${existing.body.id}/execute`)
    expect(execute).toMatchObject({status: 403, body: {code: 'FORBIDDEN', details: {operation: 'executeQuote'}}})
    const out = await call(sbx, m.auth, 'POST', '/sandbox/internal-accounts/' + a.account('USD') + '/fund', {amount: 1})
    expect(out.status).toBe(403)
    expect(ledger()).toEqual(before)
    // What MANAGE is for, it does.
    expect(
      (await call(sbx, m.auth, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Managed Person'})).status,
    ).toBe(201)
  })

  it('a forged Host header does not reach the URLs the sandbox hands out (KYC link, terms, liveness)', async () => {
    const forged = (method: string, path: string, body?: unknown) =>
      new Promise<{status: number; body: Record<string, unknown>}>((resolve, reject) => {
        const url = new URL(sbx.url + path)
        const auth = Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString(
          'base64',
        )
        const payload = body === undefined ? '' : JSON.stringify(body)
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method,
            headers: {
              host: 'evil.example.com',
              authorization: `Basic ${auth}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            },
          },
          (res) => {
            let text = ''
            res.on('data', (c: Buffer) => (text += c.toString('utf8')))
            res.on('end', () => resolve({status: res.statusCode!, body: JSON.parse(text)}))
          },
        )
        req.on('error', reject)
        req.end(payload)
      })
    const fresh = (await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Host Test'})).body
      .id as string
    const link = await forged('POST', `/customers/${fresh}/kyc-link`, {})
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    expect(link.body.kycUrl).toBe(`${sbx.url}/sandbox/hosted/kyc/${link.body.token}`)
    const terms = await forged('GET', '/customers/end-user-terms')
    expect(String(terms.body.url).startsWith(`${sbx.url}/sandbox/hosted/terms/`)).toBe(true)
    const wallet = await api(sbx, 'POST', '/customers/external-accounts', {
      customerId: a.id,
      currency: 'USDC',
      accountInfo: {accountType: 'SOLANA_WALLET', address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'},
      ownershipType: 'FIRST_PARTY',
    })
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(201)
    const challenge = await forged('POST', `/customers/external-accounts/${wallet.body.id}/challenge`, {
      method: 'LIVENESS',
    })
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(201)
    expect(String(challenge.body.verificationLink).startsWith(`${sbx.url}/sandbox/hosted/liveness/`)).toBe(true)
    expect(JSON.stringify([link.body, terms.body, challenge.body])).not.toContain('evil.example.com')
  })
})
