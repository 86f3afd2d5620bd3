import {randomUUID} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AGENT_PERMISSIONS} from '../../src/lib/schemas/agents.js'
import {Contract, type Operation} from '../helpers/contract.js'
import {absentPath, neededHeaders, neededQuery, refusedIn, validBody} from '../helpers/contract-sweep.js'
import {SANDBOX_SCA_CODE} from '../../src/emulator/domain/sca.js'
import {approvedCustomer, evmWallet, until, usdBankAccount} from '../helpers/money.js'
import {actionTransaction} from '../helpers/delegation.js'
import {agentWith, call} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Documented answers (operation + status) that no journey of the suite reaches on its own: each is
 * asked for here on purpose, deterministically (no race decides it), so docs/fidelity.md does not
 * change between runs. The contract check (test/helpers/contract-setup.ts) checks every body
 * against the contract's schema for its status; these tests assert the status and code the
 * sandbox decided, and that a refusal changes nothing.
 */
let sbx: TestSandbox
let contract: Contract
let platformAuth: string
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 20, livenessDelayMs: 20})
  contract = await Contract.load()
  platformAuth = `Basic ${Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')}`
})
afterAll(async () => sbx.stop())

const documents = (op: Operation, status: string) =>
  status in ((contract.operation(op).responses ?? {}) as Record<string, unknown>)
const platform = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(sbx, platformAuth, method, path, body, headers)

const refused = (request: () => Promise<{status: number; body: any}>) => refusedIn(sbx, request)

describe('from the contract', () => {
  it('SCA not required: every /sca operation that documents 409 answers 409 CONFLICT, nothing changed', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    await platform('PATCH', '/config', {sandbox: {scaRequired: false}})
    const ops = contract.operations.filter((op) => op.template.startsWith('/sca/') && documents(op, '409'))
    expect(ops.length).toBeGreaterThan(8)
    const off: string[] = []
    for (const op of ops) {
      const r = await refused(() =>
        platform(
          op.method.toUpperCase(),
          absentPath(contract, op) + neededQuery(contract, op, c.id),
          validBody(contract, op),
          neededHeaders(contract, op),
        ),
      )
      if (r.status !== 409 || r.code !== 'CONFLICT' || !r.unchanged) off.push(`${op.key} -> ${r.status} ${r.code}`)
    }
    expect(off).toEqual([])
  })

  it('a body naming things that do not exist (every id in it absent): 404, nothing changed', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const absent = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const m = /^([A-Z][A-Za-z]+):[0-9a-f-]{8,}$/.exec(v)
        return m ? `${m[1]}:00000000-0000-4000-8000-00000000a404` : v
      }
      if (Array.isArray(v)) return v.map(absent)
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, absent(x)]))
      return v
    }
    const off: string[] = []
    let checked = 0
    for (const op of contract.operations.filter((o) => documents(o, '404') && !o.template.includes('{'))) {
      const body = validBody(contract, op)
      if (!body || JSON.stringify(absent(body)) === JSON.stringify(body)) continue
      checked++
      const auth = op.template.startsWith('/agents/me')
        ? (await agentWith(sbx, c.id, [...AGENT_PERMISSIONS])).auth
        : platformAuth
      const r = await refused(() =>
        call(
          sbx,
          auth,
          op.method.toUpperCase(),
          op.template + neededQuery(contract, op, c.id),
          absent(body),
          neededHeaders(contract, op),
        ),
      )
      if (r.status !== 404 || !r.unchanged)
        off.push(`${op.key} -> ${r.status} ${r.code} ${JSON.stringify(r.body?.details ?? {}).slice(0, 200)}`)
    }
    expect(checked).toBeGreaterThan(5)
    expect(off).toEqual([])
  })
})

describe('refusals the sweeps cannot build from the contract alone', () => {
  it('trust and untrust (and their confirms) where SCA does not apply: 409 CONFLICT, nothing trusted', async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const ext = await platform('POST', '/customers/external-accounts', usdBankAccount(c.id))
    for (const step of ['trust', 'trust/confirm', 'untrust', 'untrust/confirm']) {
      const r = await refused(() =>
        platform(
          'POST',
          `/customers/external-accounts/${ext.body.id}/${step}`,
          step.endsWith('confirm') ? {code: SANDBOX_SCA_CODE} : undefined,
        ),
      )
      expect(r, step).toMatchObject({status: 409, code: 'CONFLICT', unchanged: true})
    }
  })

  it('a receiver lookup naming no sender, discoveries for a country that is no code: 400 naming the field', async () => {
    const lookup = await refused(() =>
      platform('GET', '/receiver/external-account/ExternalAccount:00000000-0000-4000-8000-00000000a404'),
    )
    expect(lookup).toMatchObject({status: 400, code: 'INVALID_INPUT', unchanged: true})
    expect(lookup.body.details.errors.map((e: {field: string}) => e.field)).toEqual(['customerId'])
    const discoveries = await refused(() => platform('GET', '/discoveries?country=Philippines'))
    expect(discoveries).toMatchObject({status: 400, code: 'INVALID_INPUT', unchanged: true})
    expect(discoveries.body.details.errors.map((e: {field: string}) => e.field)).toEqual(['country'])
  })
})

describe('platform external accounts: the whole life, and the conflicts', () => {
  it('list, get, a second identical add (409), ownership of a platform wallet (challenge, verify, 409s), delete', async () => {
    const bank = {
      currency: 'USD',
      accountInfo: {...usdBankAccount('x').accountInfo, accountNumber: '55667788'},
    }
    const made = await platform('POST', '/platform/external-accounts', bank)
    expect(made.status).toBe(201)
    const again = await refused(() => platform('POST', '/platform/external-accounts', bank))
    expect(again).toMatchObject({status: 409, unchanged: true})

    const list = await platform('GET', '/platform/external-accounts')
    expect(list.status).toBe(200)
    expect(list.body.data.map((a: {id: string}) => a.id)).toContain(made.body.id)
    expect(await platform('GET', `/platform/external-accounts/${made.body.id}`)).toMatchObject({
      status: 200,
      body: {id: made.body.id},
    })
    // A bank account has no ownership to prove: 409 for a challenge and for a verify.
    const challengeBank = await refused(() =>
      platform('POST', `/platform/external-accounts/${made.body.id}/challenge`, {method: 'WALLET_SIGNATURE'}),
    )
    expect(challengeBank).toMatchObject({status: 409, code: 'INVALID_STATE_TRANSITION', unchanged: true})
    const verifyBank = await refused(() =>
      platform('POST', `/platform/external-accounts/${made.body.id}/verify`, {signature: '0x00'}),
    )
    expect(verifyBank).toMatchObject({status: 409, code: 'INVALID_STATE_TRANSITION', unchanged: true})

    const wallet = evmWallet()
    const w = await platform('POST', '/platform/external-accounts', {
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: {accountType: 'ETHEREUM_WALLET', address: wallet.address},
    })
    expect(w.status, JSON.stringify(w.body)).toBe(201)
    const ch = await platform('POST', `/platform/external-accounts/${w.body.id}/challenge`, {
      method: 'WALLET_SIGNATURE',
    })
    expect(ch.status).toBe(201)
    const verified = await platform('POST', `/platform/external-accounts/${w.body.id}/verify`, {
      signature: wallet.sign(ch.body.messageToSign),
    })
    expect(verified).toMatchObject({status: 200, body: {id: w.body.id, status: 'ACTIVE'}})

    expect((await platform('DELETE', `/platform/external-accounts/${made.body.id}`)).status).toBe(204)
    expect((await platform('GET', `/platform/external-accounts/${made.body.id}`)).status).toBe(404)
  })
})

describe('agents', () => {
  it('the platform reads an agent; rejecting an action twice is 409, a reason that is no string 400; the agent reads its own things', async () => {
    const c = await approvedCustomer(sbx, ['USD', 'MXN'])
    const usd = c.account('USD')
    await platform('POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 500_000})
    const ext = await platform('POST', '/customers/external-accounts', usdBankAccount(c.id))
    const agent = await agentWith(sbx, c.id, [...AGENT_PERMISSIONS], {defaultExecutionMode: 'APPROVAL_REQUIRED'})
    expect(await platform('GET', `/agents/${agent.id}`)).toMatchObject({status: 200, body: {id: agent.id}})

    const quote = await call(sbx, agent.auth, 'POST', '/agents/me/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: usd},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    })
    expect(quote.status, JSON.stringify(quote.body)).toBe(201)
    expect(await call(sbx, agent.auth, 'GET', `/agents/me/quotes/${quote.body.id}`)).toMatchObject({
      status: 200,
      body: {id: quote.body.id},
    })
    const seen = await call(sbx, agent.auth, 'GET', `/agents/me/external-accounts/${ext.body.id}`)
    expect(seen, JSON.stringify(seen.body)).toMatchObject({
      status: 200,
      body: {id: ext.body.id},
    })
    const action = await call(sbx, agent.auth, 'POST', `/agents/me/quotes/${quote.body.id}/execute`)
    expect(action.body).toMatchObject({status: 'PENDING_APPROVAL'})
    const badReason = await refused(() =>
      platform('POST', `/agents/${agent.id}/actions/${action.body.id}/reject`, {reason: 12345}),
    )
    expect(badReason).toMatchObject({status: 400, code: 'INVALID_INPUT', unchanged: true})
    expect((await platform('POST', `/agents/${agent.id}/actions/${action.body.id}/reject`, {})).status).toBe(200)
    const twice = await refused(() => platform('POST', `/agents/${agent.id}/actions/${action.body.id}/reject`, {}))
    expect(twice).toMatchObject({status: 409, code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', unchanged: true})

    // The same beneficiary added twice by the agent: 409 (the spec's DUPLICATE_EXTERNAL_ACCOUNT, §7).
    const payee = {
      ...usdBankAccount(c.id),
      accountInfo: {...usdBankAccount(c.id).accountInfo, accountNumber: '66778899'},
    }
    const {customerId: _own, ...asAgent} = payee
    expect((await call(sbx, agent.auth, 'POST', '/agents/me/external-accounts', asAgent)).status).toBe(201)
    const twiceAdded = await refused(() => call(sbx, agent.auth, 'POST', '/agents/me/external-accounts', asAgent))
    expect(twiceAdded).toMatchObject({status: 409, unchanged: true})

    // An agent whose payments go without approval: its transfer-in, then that transaction read back.
    const auto = await agentWith(sbx, c.id, [...AGENT_PERMISSIONS])
    const pull = await call(sbx, auto.auth, 'POST', '/agents/me/transfer-in', {
      source: {accountId: ext.body.id},
      destination: {accountId: usd},
      amount: 1_000,
    })
    expect(pull.status, JSON.stringify(pull.body)).toBe(201)
    const transactionId = actionTransaction(sbx, pull.body)
    expect(await call(sbx, auto.auth, 'GET', `/agents/me/transactions/${transactionId}`)).toMatchObject({
      status: 200,
      body: {id: transactionId},
    })
    await until(
      () => platform('GET', `/transactions/${transactionId}`),
      (t) => t.body.status === 'COMPLETED',
    )
  })
})

describe('stablecoin provider accounts', () => {
  it('link, read back, a second link of the same client (409), a secret that is no string (400)', async () => {
    const link = {provider: 'BRALE', apiClientId: `client_${randomUUID()}`, apiClientSecret: 'secret_1'}
    const made = await platform('POST', '/stablecoin-provider-accounts', link, {'idempotency-key': randomUUID()})
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(await platform('GET', `/stablecoin-provider-accounts/${made.body.id}`)).toMatchObject({
      status: 200,
      body: {id: made.body.id},
    })
    const again = await refused(() =>
      platform('POST', '/stablecoin-provider-accounts', link, {'idempotency-key': randomUUID()}),
    )
    expect(again).toMatchObject({status: 409, unchanged: true})
    const bad = await refused(() =>
      platform(
        'POST',
        '/stablecoin-provider-accounts',
        {...link, apiClientSecret: 12345},
        {'idempotency-key': randomUUID()},
      ),
    )
    expect(bad).toMatchObject({status: 400, code: 'INVALID_INPUT', unchanged: true})
  })
})

describe('money limits', () => {
  it("past the platform's daily volume, a quote's execution and a transfer-out are 429 DAILY_VOLUME_LIMIT_EXCEEDED, nothing changed", async () => {
    const c = await approvedCustomer(sbx, ['USD'])
    const usd = c.account('USD')
    await platform('POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 100_000})
    const ext = await platform('POST', '/customers/external-accounts', {
      ...usdBankAccount(c.id),
      accountInfo: {...usdBankAccount(c.id).accountInfo, accountNumber: '44332211'},
    })
    // A customer's bank account has no ownership to prove either (the platform's is above).
    const verifyBank = await refused(() =>
      platform('POST', `/customers/external-accounts/${ext.body.id}/verify`, {signature: '0x00'}),
    )
    expect(verifyBank).toMatchObject({status: 409, code: 'INVALID_STATE_TRANSITION', unchanged: true})
    const quote = await platform('POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: usd},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    })
    expect(quote.status, JSON.stringify(quote.body)).toBe(201)
    await platform('PATCH', '/config', {sandbox: {dailyVolumeLimitUsdCents: 1}})
    try {
      const execute = await refused(() =>
        platform('POST', `/quotes/${quote.body.id}/execute`, undefined, {'idempotency-key': randomUUID()}),
      )
      expect(execute).toMatchObject({status: 429, code: 'DAILY_VOLUME_LIMIT_EXCEEDED', unchanged: true})
      const transfer = await refused(() =>
        platform(
          'POST',
          '/transfer-out',
          {source: {accountId: usd}, destination: {accountId: ext.body.id}, amount: 1_000},
          {'idempotency-key': randomUUID()},
        ),
      )
      expect(transfer).toMatchObject({status: 429, code: 'DAILY_VOLUME_LIMIT_EXCEEDED', unchanged: true})
    } finally {
      await platform('PATCH', '/config', {sandbox: {dailyVolumeLimitUsdCents: 5_000_000_000}})
    }
  })
})
