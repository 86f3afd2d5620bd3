import {randomUUID} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {AGENT_PERMISSIONS} from '../../src/lib/schemas/agents.js'
import {Contract, type Operation} from '../helpers/contract.js'
import {absentPath, neededHeaders, neededQuery, storeFingerprint, validBody} from '../helpers/contract-sweep.js'
import {SANDBOX_SCA_CODE} from '../../src/emulator/domain/sca.js'
import {api, approveInStore, approvedCustomer, evmWallet, until, usdBankAccount} from '../helpers/money.js'
import {pdf} from '../helpers/kyc.js'
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

/** A refusal: its status and code, and nothing stored changed. */
async function refused(request: () => Promise<{status: number; body: any}>) {
  const before = storeFingerprint(sbx)
  const r = await request()
  return {
    status: r.status,
    code: r.body?.code as string | undefined,
    body: r.body,
    unchanged: storeFingerprint(sbx) === before,
  }
}

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

describe('KYC records', () => {
  it('a document is read back and deleted; once its holder is decided it cannot be (409); a replace may not move it (400); a verification is read back', async () => {
    const c = await platform('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Grace Hopper',
      currencies: ['USD'],
    })
    const upload = (documentType: string) => {
      const form = new FormData()
      form.set('documentHolder', c.body.id)
      form.set('documentType', documentType)
      form.set('country', 'US')
      form.set('file', new Blob([new Uint8Array(pdf())], {type: 'application/pdf'}), 'doc.pdf')
      return fetch(`${sbx.url}/documents`, {method: 'POST', headers: {authorization: platformAuth}, body: form}).then(
        async (r) => ({status: r.status, body: await r.json()}),
      )
    }
    const doc = await upload('PROOF_OF_ADDRESS')
    expect(doc.status, JSON.stringify(doc.body)).toBe(201)
    expect(await platform('GET', `/documents/${doc.body.id}`)).toMatchObject({status: 200, body: {id: doc.body.id}})
    const moved = await refused(() => {
      const form = new FormData()
      form.set('documentHolder', 'Customer:00000000-0000-4000-8000-000000000001')
      form.set('file', new Blob([new Uint8Array(pdf())], {type: 'application/pdf'}), 'doc.pdf')
      return fetch(`${sbx.url}/documents/${doc.body.id}`, {
        method: 'PUT',
        headers: {authorization: platformAuth},
        body: form,
      }).then(async (r) => ({status: r.status, body: await r.json()}))
    })
    expect(moved).toMatchObject({status: 400, code: 'INVALID_INPUT', unchanged: true})
    expect((await platform('DELETE', `/documents/${doc.body.id}`)).status).toBe(204)

    const verification = await platform('POST', '/verifications', {customerId: c.body.id})
    expect(verification.status, JSON.stringify(verification.body)).toBe(200)
    expect(await platform('GET', `/verifications/${verification.body.id}`)).toMatchObject({
      status: 200,
      body: {id: verification.body.id},
    })

    const kept = await upload('PROOF_OF_ADDRESS')
    approveInStore(sbx, c.body.id)
    const decided = await refused(() => platform('DELETE', `/documents/${kept.body.id}`))
    expect(decided).toMatchObject({status: 409, code: 'INVALID_STATE_TRANSITION', unchanged: true})
  })
})

describe('strong customer authentication: the lock, the resend, the reset limit', () => {
  let scaSbx: TestSandbox
  beforeAll(async () => {
    scaSbx = await startSandbox({scaRequired: true, scaMaxFailedAttempts: 3, paymentCompletionDelayMs: 20})
  })
  afterAll(async () => scaSbx.stop())
  const sca = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api(scaSbx, method, path, body, headers)

  it('a held payment: its code re-sent (204); three failed logins lock the customer: record-event and authorize answer 423', async () => {
    const c = await approvedCustomer(scaSbx, ['USD'])
    const usd = c.account('USD')
    await sca('POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: 100_000})
    const ext = await sca('POST', '/customers/external-accounts', usdBankAccount(c.id))
    const started = await sca('POST', `/sca/login/start?customerId=${c.id}`, {factor: 'SMS_OTP'})
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const done = await sca('POST', `/sca/login/complete?customerId=${c.id}`, {
      factor: 'SMS_OTP',
      endUserIpAddress: '203.0.113.7',
      challengeId: started.body.challengeId,
      code: SANDBOX_SCA_CODE,
    })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    const quote = await sca('POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: usd},
      destination: {destinationType: 'ACCOUNT', accountId: ext.body.id},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    })
    const held = await sca('POST', `/quotes/${quote.body.id}/execute`, undefined, {'idempotency-key': randomUUID()})
    expect(held.body, JSON.stringify(held.body)).toMatchObject({status: 'PENDING_AUTHORIZATION'})
    expect((await sca('POST', `/quotes/${quote.body.id}/authorize/resend`)).status).toBe(204)

    for (let i = 0; i < 3; i++)
      await sca('POST', `/sca/record-event?customerId=${c.id}`, {eventType: 'FAILED_LOGIN_ATTEMPT'})
    const before = storeFingerprint(scaSbx)
    const event = await sca('POST', `/sca/record-event?customerId=${c.id}`, {eventType: 'FAILED_LOGIN_ATTEMPT'})
    expect(event).toMatchObject({status: 423, body: {code: 'ACCOUNT_LOCKED'}})
    const authorize = await sca('POST', `/quotes/${quote.body.id}/authorize`, {code: SANDBOX_SCA_CODE})
    expect(authorize).toMatchObject({status: 423, body: {code: 'ACCOUNT_LOCKED'}})
    expect(storeFingerprint(scaSbx)).toBe(before)
  })

  it('trusting a beneficiary is an SCA step: start (challenge), a wrong code 400, the right one 200; untrust the same way', async () => {
    const c = await approvedCustomer(scaSbx, ['USD'])
    const ext = await sca('POST', '/customers/external-accounts', usdBankAccount(c.id))
    const path = `/customers/external-accounts/${ext.body.id}`
    const start = await sca('POST', `${path}/trust`)
    expect(start).toMatchObject({status: 200, body: {scaChallenge: {factor: 'SMS_OTP'}}})
    const challengeId = start.body.scaChallenge.id
    const wrong = await sca('POST', `${path}/trust/confirm`, {challengeId, code: '000000'})
    expect(wrong).toMatchObject({status: 400, body: {code: 'INVALID_INPUT'}})
    expect(wrong.body.details.errors.map((e: {field: string}) => e.field)).toEqual(['code'])
    const trusted = await sca('POST', `${path}/trust/confirm`, {challengeId, code: SANDBOX_SCA_CODE})
    expect(trusted).toMatchObject({status: 200, body: {trusted: true}})
    expect(scaSbx.emu.db.get<{trusted: boolean}>('externalAccounts', ext.body.id)!.trusted).toBe(true)
    // A confirm with nothing started is refused; the beneficiary stays trusted.
    const early = await sca('POST', `${path}/untrust/confirm`, {code: SANDBOX_SCA_CODE})
    expect(early).toMatchObject({status: 400, body: {code: 'INVALID_INPUT'}})
    const untrust = await sca('POST', `${path}/untrust`)
    expect(untrust.status).toBe(200)
    expect(
      await sca('POST', `${path}/untrust/confirm`, {challengeId: untrust.body.scaChallenge.id, code: SANDBOX_SCA_CODE}),
    ).toMatchObject({status: 200, body: {trusted: false}})
  })

  it('factor resets: completing one before liveness passed is 400; the sixth start in a day is 429 RATE_LIMITED', async () => {
    const c = await approvedCustomer(scaSbx, ['USD'])
    const first = await sca('POST', `/sca/factors/reset?customerId=${c.id}`, {factor: 'SMS_OTP'})
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const early = await sca('POST', `/sca/factors/reset/${first.body.resetId}/complete?customerId=${c.id}`, {
      mobile: '+14155550123',
    })
    expect(early).toMatchObject({status: 400, body: {code: 'INVALID_INPUT'}})
    for (let i = 0; i < 4; i++)
      expect((await sca('POST', `/sca/factors/reset?customerId=${c.id}`, {factor: 'SMS_OTP'})).status).toBe(201)
    const before = storeFingerprint(scaSbx)
    const sixth = await sca('POST', `/sca/factors/reset?customerId=${c.id}`, {factor: 'SMS_OTP'})
    expect(sixth).toMatchObject({status: 429, body: {code: 'RATE_LIMITED'}})
    expect(storeFingerprint(scaSbx)).toBe(before)
  })
})
