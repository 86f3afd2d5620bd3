import {randomUUID} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {SANDBOX_SCA_CODE} from '../../src/emulator/domain/sca.js'
import {refusedIn, storeFingerprint} from '../helpers/contract-sweep.js'
import {pdf} from '../helpers/kyc.js'
import {api, approveInStore, approvedCustomer, usdBankAccount} from '../helpers/money.js'
import {call} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

/**
 * Documented answers of KYC records and strong customer authentication that no journey reaches on
 * its own, asked for on purpose and deterministically (as in contract-answers.test.ts), so
 * docs/fidelity.md does not change between runs.
 */
let sbx: TestSandbox
let platformAuth: string
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 20, livenessDelayMs: 20})
  platformAuth = `Basic ${Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')}`
})
afterAll(async () => sbx.stop())

const platform = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(sbx, platformAuth, method, path, body, headers)
const refused = (request: () => Promise<{status: number; body: any}>) => refusedIn(sbx, request)

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
