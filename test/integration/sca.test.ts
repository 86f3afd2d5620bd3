import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {api, approvedCustomer, clabeEnding, until} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50, scaRequired: true, scaMaxFailedAttempts: 3, scaChallengeTtlMs: 60_000})
})
afterAll(async () => sbx.stop())

const run = (args: string[], input?: string) => svc(args, {env: sbx.env, input})
const SECRET_CODE = '123456'

async function fundedCustomer() {
  const c = await approvedCustomer(sbx, ['USD', 'MXN'])
  await api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(c.account('USD'))}/fund`, {amount: 100_000})
  const ext = await run(['accounts', 'external', 'add', '--customer', c.id, '--type', 'CLABE', '--clabe', clabeEnding('123'), '--beneficiary-name', 'Maria Garcia', '--json'])
  expect(ext.code, ext.stderr).toBe(0)
  return {...c, dest: ext.json().id as string}
}

async function login(customerId: string) {
  const started = await run(['sca', 'login', 'start', customerId, '--json'])
  expect(started.code, started.stderr).toBe(0)
  const done = await run(['sca', 'login', 'complete', customerId, '--challenge-id', started.json().challengeId, '--code', '-', '--json'], SECRET_CODE)
  expect(done.code, done.stderr).toBe(0)
  return done
}

describe('strong customer authentication through the CLI', () => {
  it('without a session: quote create is 409 SCA_SESSION_REQUIRED, exit 6, with the login hint; nothing is stored', async () => {
    const c = await fundedCustomer()
    const before = sbx.emu.db.count('quotes')
    const r = await run(['quote', 'create', '--from', c.account('USD'), '--to', c.dest, '--send', '10.00', '--json'])
    expect(r.code).toBe(6)
    const err = r.json().error
    expect(err).toMatchObject({status: 409, code: 'SCA_SESSION_REQUIRED'})
    expect(err.hint).toMatch(/SCA login|sca login/i)
    expect(sbx.emu.db.count('quotes')).toBe(before)
  })

  it('enrol a passkey (one per customer) -> login -> a quote that needed SCA is held, authorized, and completes', async () => {
    const c = await fundedCustomer()
    const enrol = await run(['sca', 'factors', 'enrol', c.id, '--type', 'PASSKEY', '--json'])
    expect(enrol.code, enrol.stderr).toBe(0)
    expect(enrol.json()).toMatchObject({type: 'PASSKEY', relyingPartyId: 'localhost'})
    const confirm = await run(['sca', 'factors', 'confirm', c.id, '--type', 'PASSKEY', '--origin', 'https://localhost', '--credential', '{"id":"cred-1"}', '--json'])
    expect(confirm.code, confirm.stderr).toBe(0)
    const second = await run(['sca', 'factors', 'enrol', c.id, '--type', 'PASSKEY', '--json'])
    expect(second.code).toBe(6)
    expect(second.json().error).toMatchObject({status: 409, code: 'PASSKEY_ALREADY_ENROLLED'})
    expect(second.json().error.hint).toMatch(/delete the enrolled passkey/)
    const list = await run(['sca', 'factors', 'list', c.id, '--json'])
    expect(list.json().factors.map((f: {factor: string}) => f.factor)).toEqual(['SMS_OTP', 'PASSKEY'])

    const session = await login(c.id)
    const expires = Date.parse(session.json().sessionExpiresAt)
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(180)

    const q = await run(['quote', 'create', '--from', c.account('USD'), '--to', c.dest, '--send', '10.00', '--json'])
    expect(q.code, q.stderr).toBe(0)
    const ex = await run(['quote', 'execute', q.json().id, '--yes', '--json'])
    expect(ex.code, ex.stderr).toBe(0)
    expect(ex.json()).toMatchObject({status: 'PENDING_AUTHORIZATION', scaChallenge: {factor: 'SMS_OTP'}})
    expect(ex.stderr).toMatch(/svc quote authorize/)
    const tx = sbx.emu.db.get<{status: string}>('transactions', ex.json().transactionId)!
    expect(tx.status).toBe('PENDING_AUTHORIZATION')
    const auth = await run(['quote', 'authorize', q.json().id, '--code', '-', '--json'], SECRET_CODE)
    expect(auth.code, auth.stderr).toBe(0)
    expect(auth.json().status).toBe('PROCESSING')
    const settled = await until(() => sbx.emu.db.get<{status: string}>('transactions', ex.json().transactionId)!, (t) => t.status === 'COMPLETED')
    expect(settled.status).toBe('COMPLETED')
    for (const out of [enrol, confirm, session, q, ex, auth]) expect(out.stdout + out.stderr).not.toContain(SECRET_CODE)
  })

  it('repeated wrong codes lock the account: 423 ACCOUNT_LOCKED, exit 6, hint; the counter survives the refusals', async () => {
    const c = await fundedCustomer()
    const started = await run(['sca', 'login', 'start', c.id, '--json'])
    const challengeId = started.json().challengeId
    const wrong = (n: string) => run(['sca', 'login', 'complete', c.id, '--challenge-id', challengeId, '--code', n, '--json'])
    const first = await wrong('111111')
    expect(first.code).toBe(2)
    expect(first.json().error).toMatchObject({status: 400, code: 'INVALID_INPUT'})
    expect(first.stdout + first.stderr).not.toContain('111111')
    await wrong('222222')
    const third = await wrong('333333')
    expect(third.code).toBe(6)
    expect(third.json().error).toMatchObject({status: 423, code: 'ACCOUNT_LOCKED', details: {failedAttempts: 3}})
    expect(third.json().error.hint).toMatch(/lockedUntil/)
    expect(sbx.emu.db.get<{failedAttempts: number; lockedUntil: string}>('scaStates', c.id)).toMatchObject({failedAttempts: 3})
    // Locked: even the right code is refused, and the state does not change.
    const right = await run(['sca', 'login', 'complete', c.id, '--challenge-id', challengeId, '--code', '-', '--json'], SECRET_CODE)
    expect(right.code).toBe(6)
    expect(right.json().error.code).toBe('ACCOUNT_LOCKED')
    expect(sbx.emu.db.get<{sessionExpiresAt?: string}>('scaStates', c.id)!.sessionExpiresAt).toBeUndefined()
    const human = await run(['quote', 'create', '--from', c.account('USD'), '--to', c.dest, '--send', '1.00'])
    expect(human.code).toBe(6)
    expect(human.stderr).toMatch(/ACCOUNT_LOCKED, HTTP 423/)
    expect(human.stderr).toMatch(/Hint: .*lockedUntil/)
  })

  it('a challenge left to expire fails the transaction with SCA_NOT_COMPLETED', async () => {
    const c = await fundedCustomer()
    await login(c.id)
    await api(sbx, 'PATCH', '/config', {sandbox: {scaChallengeTtlMs: 300}})
    try {
      const q = await run(['quote', 'create', '--from', c.account('USD'), '--to', c.dest, '--send', '5.00', '--json'])
      const ex = await run(['quote', 'execute', q.json().id, '--yes', '--json'])
      expect(ex.json().status).toBe('PENDING_AUTHORIZATION')
      const t = await until(() => sbx.emu.db.get<{status: string; failureReason?: string}>('transactions', ex.json().transactionId)!, (x) => x.status === 'FAILED', 10_000)
      expect(t).toMatchObject({status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED'})
      const balance = sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', c.account('USD'))!.balance.amount
      expect(balance).toBe(100_000)
    } finally {
      await api(sbx, 'PATCH', '/config', {sandbox: {scaChallengeTtlMs: 60_000}})
    }
  })

  it('bad input is refused before any request (exit 2, field named, code not echoed)', async () => {
    const before = sbx.requestCount()
    const r = await run(['quote', 'authorize', 'Quote:abc', '--code', '12ab', '--json'])
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors[0].field).toBe('code')
    expect(r.stdout + r.stderr).not.toContain('12ab')
    const bad = await run(['sca', 'login', 'start', 'Quote:abc', '--json'])
    expect(bad.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })

  it('--debug never shows the SCA code', async () => {
    const c = await fundedCustomer()
    const started = await run(['sca', 'login', 'start', c.id, '--json'])
    const done = await run(['sca', 'login', 'complete', c.id, '--challenge-id', started.json().challengeId, '--code', '-', '--debug', '--json'], SECRET_CODE)
    expect(done.code, done.stderr).toBe(0)
    expect(done.stderr).toMatch(/POST .*sca\/login\/complete/)
    expect(done.stdout + done.stderr).not.toContain(SECRET_CODE)
  })
})
