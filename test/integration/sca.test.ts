import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, fundedPayer, quoteArgs, realtimeQuoteArgs, until} from '../helpers/money.js'
import {call, tokenWith} from '../helpers/principals.js'
import {onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({
    paymentCompletionDelayMs: 50,
    scaRequired: true,
    scaMaxFailedAttempts: 3,
    scaChallengeTtlMs: 60_000,
    livenessDelayMs: 50,
  })
})
afterAll(async () => sbx.stop())

const SECRET_CODE = '123456'

async function login(customerId: string) {
  const started = await sbx.run(['sca', 'login', 'start', customerId, '--json'])
  expect(started.code, started.stderr).toBe(0)
  const done = await sbx.run(
    ['sca', 'login', 'complete', customerId, '--challenge-id', started.json().challengeId, '--code', '-', '--json'],
    {input: SECRET_CODE},
  )
  expect(done.code, done.stderr).toBe(0)
  return done
}

describe('strong customer authentication through the CLI', () => {
  it('without a session: quote create is 409 SCA_SESSION_REQUIRED, exit 6, with the login hint; nothing is stored', async () => {
    const c = await fundedPayer(sbx)
    const before = sbx.emu.db.count('quotes')
    const r = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '10.00', '--json'))
    expect(r.code).toBe(6)
    const err = r.json().error
    expect(err).toMatchObject({status: 409, code: 'SCA_SESSION_REQUIRED'})
    expect(err.hint).toMatch(/SCA login|sca login/i)
    expect(sbx.emu.db.count('quotes')).toBe(before)
  })

  it('enrol a passkey (one per customer) -> login -> a quote that needed SCA is held, authorized, and completes', async () => {
    const c = await fundedPayer(sbx)
    const enrol = await sbx.run(['sca', 'factors', 'enrol', c.id, '--type', 'PASSKEY', '--json'])
    expect(enrol.code, enrol.stderr).toBe(0)
    expect(enrol.json()).toMatchObject({type: 'PASSKEY', relyingPartyId: 'localhost'})
    const confirm = await sbx.run([
      'sca',
      'factors',
      'confirm',
      c.id,
      '--type',
      'PASSKEY',
      '--origin',
      'https://localhost',
      '--credential',
      '{"id":"cred-1"}',
      '--json',
    ])
    expect(confirm.code, confirm.stderr).toBe(0)
    const second = await sbx.run(['sca', 'factors', 'enrol', c.id, '--type', 'PASSKEY', '--json'])
    expect(second.code).toBe(6)
    expect(second.json().error).toMatchObject({status: 409, code: 'PASSKEY_ALREADY_ENROLLED'})
    expect(second.json().error.hint).toMatch(/delete the enrolled passkey/)
    const list = await sbx.run(['sca', 'factors', 'list', c.id, '--json'])
    expect(list.json().factors.map((f: {factor: string}) => f.factor)).toEqual(['SMS_OTP', 'PASSKEY'])

    const session = await login(c.id)
    const expires = Date.parse(session.json().sessionExpiresAt)
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(180)

    const q = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '10.00', '--json'))
    expect(q.code, q.stderr).toBe(0)
    const ex = await sbx.run(['quote', 'execute', q.json().id, '--yes', '--json'])
    expect(ex.code, ex.stderr).toBe(0)
    expect(ex.json()).toMatchObject({status: 'PENDING_AUTHORIZATION', scaChallenge: {factor: 'SMS_OTP'}})
    expect(ex.stderr).toMatch(/svc quote authorize/)
    const tx = sbx.emu.db.get<{status: string}>('transactions', ex.json().transactionId)!
    expect(tx.status).toBe('PENDING_AUTHORIZATION')
    const auth = await sbx.run(['quote', 'authorize', q.json().id, '--code', '-', '--json'], {input: SECRET_CODE})
    expect(auth.code, auth.stderr).toBe(0)
    expect(auth.json().status).toBe('PROCESSING')
    const settled = await until(
      () => sbx.emu.db.get<{status: string}>('transactions', ex.json().transactionId)!,
      (t) => t.status === 'COMPLETED',
    )
    expect(settled.status).toBe('COMPLETED')
    for (const out of [enrol, confirm, session, q, ex, auth]) expect(out.stdout + out.stderr).not.toContain(SECRET_CODE)
  })

  it('repeated wrong codes lock the account: 423 ACCOUNT_LOCKED, exit 6, hint; the counter survives the refusals', async () => {
    const c = await fundedPayer(sbx)
    const started = await sbx.run(['sca', 'login', 'start', c.id, '--json'])
    const challengeId = started.json().challengeId
    const wrong = (n: string) =>
      sbx.run(['sca', 'login', 'complete', c.id, '--challenge-id', challengeId, '--code', n, '--json'])
    const first = await wrong('111111')
    expect(first.code).toBe(2)
    expect(first.json().error).toMatchObject({status: 400, code: 'INVALID_INPUT'})
    expect(first.stdout + first.stderr).not.toContain('111111')
    await wrong('222222')
    const third = await wrong('333333')
    expect(third.code).toBe(6)
    expect(third.json().error).toMatchObject({status: 423, code: 'ACCOUNT_LOCKED', details: {failedAttempts: 3}})
    expect(third.json().error.hint).toMatch(/lockedUntil/)
    expect(sbx.emu.db.get<{failedAttempts: number; lockedUntil: string}>('scaStates', c.id)).toMatchObject({
      failedAttempts: 3,
    })
    // Locked: even the right code is refused, and the state does not change.
    const right = await sbx.run(
      ['sca', 'login', 'complete', c.id, '--challenge-id', challengeId, '--code', '-', '--json'],
      {input: SECRET_CODE},
    )
    expect(right.code).toBe(6)
    expect(right.json().error.code).toBe('ACCOUNT_LOCKED')
    expect(sbx.emu.db.get<{sessionExpiresAt?: string}>('scaStates', c.id)!.sessionExpiresAt).toBeUndefined()
    const human = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '1.00'))
    expect(human.code).toBe(6)
    expect(human.stderr).toMatch(/ACCOUNT_LOCKED, HTTP 423/)
    expect(human.stderr).toMatch(/Hint: .*lockedUntil/)
  })

  it('a challenge left to expire fails the transaction with SCA_NOT_COMPLETED', async () => {
    const c = await fundedPayer(sbx)
    await login(c.id)
    await api(sbx, 'PATCH', '/config', {sandbox: {scaChallengeTtlMs: 300}})
    try {
      const q = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '5.00', '--json'))
      const ex = await sbx.run(['quote', 'execute', q.json().id, '--yes', '--json'])
      expect(ex.json().status).toBe('PENDING_AUTHORIZATION')
      const t = await until(
        () => sbx.emu.db.get<{status: string; failureReason?: string}>('transactions', ex.json().transactionId)!,
        (x) => x.status === 'FAILED',
        10_000,
      )
      expect(t).toMatchObject({status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED'})
      const balance = sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', c.account('USD'))!.balance.amount
      expect(balance).toBe(100_000)
    } finally {
      await api(sbx, 'PATCH', '/config', {sandbox: {scaChallengeTtlMs: 60_000}})
    }
  })

  it('bad input is refused before any request (exit 2, field named, code not echoed)', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['quote', 'authorize', 'Quote:abc', '--code', '12ab', '--json'])
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors[0].field).toBe('code')
    expect(r.stdout + r.stderr).not.toContain('12ab')
    const bad = await sbx.run(['sca', 'login', 'start', 'Quote:abc', '--json'])
    expect(bad.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })

  it('--debug never shows the SCA code', async () => {
    const c = await fundedPayer(sbx)
    const started = await sbx.run(['sca', 'login', 'start', c.id, '--json'])
    const done = await sbx.run(
      [
        'sca',
        'login',
        'complete',
        c.id,
        '--challenge-id',
        started.json().challengeId,
        '--code',
        '-',
        '--debug',
        '--json',
      ],
      {input: SECRET_CODE},
    )
    expect(done.code, done.stderr).toBe(0)
    expect(done.stderr).toMatch(/POST .*sca\/login\/complete/)
    expect(done.stdout + done.stderr).not.toContain(SECRET_CODE)
  })

  it('issue 29 F4: card reveal is SCA-railed: without a session 409 with the login hint (exit 6) and no link minted; with one, the link', async () => {
    const c = await fundedPayer(sbx, ['USD'])
    const issued = await sbx.run([
      'cards',
      'issue',
      '--customer',
      c.id,
      '--account',
      c.account('USD'),
      '--platform-card-id',
      'sca-reveal-1',
      '--wait',
      '--json',
    ])
    expect(issued.code, issued.stderr).toBe(0)
    const card = issued.json().id as string
    const reveals = () => sbx.emu.db.sql.rows('SELECT id FROM cardReveals').length
    const before = reveals()
    const out = join(sbx.dir, 'sca-reveal.json')
    const refused = await sbx.run(['cards', 'reveal', card, '--out', out])
    expect(refused.code).toBe(6)
    expect(refused.stderr).toMatch(/SCA_SESSION_REQUIRED, HTTP 409/)
    expect(refused.stderr).toContain(`svc sca login start ${c.id}`)
    expect(reveals()).toBe(before)
    // Straight to the API as well: the check is the sandbox's, not the CLI's.
    const direct = await api(sbx, 'POST', `/cards/${card}/reveal`)
    expect(direct).toMatchObject({status: 409, body: {code: 'SCA_SESSION_REQUIRED', details: {customerId: c.id}}})
    expect(reveals()).toBe(before)
    await login(c.id)
    const shown = await sbx.run(['cards', 'reveal', card, '--out', out, '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    expect(reveals()).toBe(before + 1)
  })

  it('quote execute without a session explains the SCA step (exit 6) and changes nothing', async () => {
    const c = await fundedPayer(sbx)
    await login(c.id)
    const q = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '3.00', '--json'))
    expect(q.code, q.stderr).toBe(0)
    // The session lapses before execute.
    const st = sbx.emu.db.get<Record<string, unknown>>('scaStates', c.id)!
    await sbx.emu.db.unit(() =>
      sbx.emu.db.put('scaStates', c.id, {...st, sessionExpiresAt: new Date(Date.now() - 1000).toISOString()}),
    )
    const human = await sbx.run(['quote', 'execute', q.json().id, '--yes'])
    expect(human.code).toBe(6)
    expect(human.stderr).toMatch(/SCA_SESSION_REQUIRED, HTTP 409/)
    expect(human.stderr).toContain(`svc sca login start ${c.id}`)
    expect(sbx.emu.db.get<{status: string}>('quotes', q.json().id)!.status).toBe('PENDING')
    expect(sbx.emu.db.get('transactions', q.json().transactionId)).toBeUndefined()
  })

  it(
    'on a terminal, quote execute offers the SCA login and asks for the authorization code',
    {timeout: 60_000},
    async () => {
      const c = await fundedPayer(sbx)
      await login(c.id)
      const q = await sbx.run(quoteArgs(c.account('USD'), c.dest, '--send', '4.00', '--json'))
      const st = sbx.emu.db.get<Record<string, unknown>>('scaStates', c.id)!
      await sbx.emu.db.unit(() =>
        sbx.emu.db.put('scaStates', c.id, {...st, sessionExpiresAt: new Date(Date.now() - 1000).toISOString()}),
      )
      const t = await onTerminal(['quote', 'execute', q.json().id], {
        env: sbx.env,
        answers: [
          [/Send USD 4\.00[\s\S]*\(y\/N\)/, 'y\r'],
          [/log them in now[\s\S]*\(Y\/n\)/, 'y\r'],
          [/SCA code/, SECRET_CODE + '\r'],
          // The first question's redraws say "SCA code" too: wait for it to be done (✔) and the next one asked.
          [/✔[\s\S]*\? SCA code/, SECRET_CODE + '\r'],
        ],
      })
      expect(t.code, t.out).toBe(0)
      expect(t.out).toMatch(/SCA session open until/)
      expect(t.out).toMatch(/Authorized .*PROCESSING/)
      expect(t.out).not.toContain(SECRET_CODE)
      expect(sbx.emu.db.get<{status: string}>('quotes', q.json().id)!.status).not.toBe('PENDING_AUTHORIZATION')
    },
  )

  it('TOTP enrolment keeps the secret and recovery codes off the output unless asked; record-event and reset', async () => {
    const c = await fundedPayer(sbx)
    const enrol = await sbx.run(['sca', 'factors', 'enrol', c.id, '--type', 'TOTP', '--json'])
    expect(enrol.code, enrol.stderr).toBe(0)
    const secret = sbx.emu.db.get<{pending: {totpSecret: string}}>('scaStates', c.id)!.pending.totpSecret
    expect(enrol.json()).toMatchObject({type: 'TOTP', secret: '[REDACTED]', totpUri: '[REDACTED]'})
    expect(enrol.stdout + enrol.stderr).not.toContain(secret)
    const secretFile = join(sbx.env.HOME, 'totp-secret.txt')
    writeFileSync(secretFile, secret + '\n', {mode: 0o600})
    // The secret never on argv: the old flag is refused (even as @file), stdin cannot carry both, nothing is sent.
    const before = sbx.requestCount()
    const legacy = await sbx.run([
      'sca',
      'factors',
      'confirm',
      c.id,
      '--type',
      'TOTP',
      '--secret',
      secret,
      '--code',
      SECRET_CODE,
    ])
    expect(legacy.code).toBe(2)
    expect(legacy.stderr).toContain(
      'Error: --secret: the TOTP secret is no longer taken as a flag value (it would land in shell history and ps)',
    )
    expect(legacy.stderr).toContain(
      'Hint: Use --secret-file <file>, --secret-stdin, or answer the hidden prompt on a terminal.',
    )
    expect(legacy.stderr).not.toContain(secret)
    const both = await sbx.run(['sca', 'factors', 'confirm', c.id, '--type', 'TOTP', '--secret-stdin', '--code', '-'], {
      input: secret,
    })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--secret-stdin and --code - both read stdin')
    const none = await sbx.run(['sca', 'factors', 'confirm', c.id, '--type', 'TOTP', '--code', SECRET_CODE, '--json'])
    expect(none.code).toBe(2)
    expect(none.json().error.details.errors).toEqual([
      {field: 'secret', message: 'is required for TOTP: --secret-file <file> or --secret-stdin (prompts are off)'},
    ])
    expect(sbx.requestCount()).toBe(before)
    const fromStdin = await sbx.run(
      ['sca', 'factors', 'confirm', c.id, '--type', 'TOTP', '--secret-stdin', '--code', '000000', '--json'],
      {input: secret + '\n'},
    )
    expect(fromStdin.json().error?.code).not.toBe('USAGE') // read and sent (the code is wrong: the Service refuses it)
    expect(sbx.requestCount()).toBe(before + 1)
    const confirm = await sbx.run(
      ['sca', 'factors', 'confirm', c.id, '--type', 'TOTP', '--secret-file', secretFile, '--code', '-', '--json'],
      {input: SECRET_CODE},
    )
    expect(confirm.code, confirm.stderr).toBe(0)
    expect(confirm.json()).toEqual({type: 'TOTP', recoveryCodes: '[REDACTED]'})

    const ev = await sbx.run(['sca', 'record-event', c.id, '--event', 'FAILED_LOGIN_ATTEMPT', '--json'])
    expect(ev.json()).toMatchObject({
      eventType: 'FAILED_LOGIN_ATTEMPT',
      failedAttempts: 1,
      suspended: false,
      lockedUntil: null,
    })

    const reset = await sbx.run(['sca', 'reset', 'start', c.id, '--factor', 'TOTP', '--json'])
    expect(reset.code, reset.stderr).toBe(0)
    const resetId = reset.json().resetId
    expect(reset.json().livenessAccessToken).toBeUndefined()
    const early = await until(
      () => sbx.run(['sca', 'reset', 'get', c.id, resetId, '--json']),
      (r) => r.json().status === 'LIVENESS_PASSED',
    )
    expect(early.json()).toMatchObject({status: 'LIVENESS_PASSED', factor: 'TOTP'})
    const done = await sbx.run(['sca', 'reset', 'complete', c.id, resetId, '--json'])
    expect(done.code, done.stderr).toBe(0)
    const list = await sbx.run(['sca', 'factors', 'list', c.id, '--json'])
    expect(list.json().factors).toEqual([{factor: 'SMS_OTP'}])
  })

  it('SCA endpoints answer 409 for a platform that does not require SCA, with a hint that says so', async () => {
    const c = await fundedPayer(sbx)
    await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: false}})
    try {
      const r = await sbx.run(['sca', 'factors', 'list', c.id, '--json'])
      expect(r.code).toBe(6)
      expect(r.json().error).toMatchObject({status: 409, code: 'CONFLICT'})
      expect(r.json().error.hint).toMatch(/scaRequired/)
    } finally {
      await api(sbx, 'PATCH', '/config', {sandbox: {scaRequired: true}})
    }
  })

  it('a real-time-funded quote is answered 202 PENDING_AUTHORIZATION without instructions, which come with the authorization', async () => {
    const c = await fundedPayer(sbx)
    await login(c.id)
    const r = await sbx.run(realtimeQuoteArgs(c.id, '--currency', 'USD', '--to', c.dest, '--send', '15.00', '--json'))
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({status: 'PENDING_AUTHORIZATION', scaChallenge: {purpose: 'TRANSFER'}})
    expect(r.json().paymentInstructions).toBeUndefined()
    expect(r.stderr).toMatch(/payment instructions come once authorized/)
    const auth = await sbx.run(['quote', 'authorize', r.json().id, '--code', '-', '--json'], {input: SECRET_CODE})
    expect(auth.code, auth.stderr).toBe(0)
    expect(auth.json().status).toBe('PENDING')
    expect(auth.json().paymentInstructions.length).toBeGreaterThan(0)
    const twice = await sbx.run(['quote', 'authorize', r.json().id, '--code', '-', '--json'], {input: SECRET_CODE})
    expect(twice.code).toBe(6)
    expect(twice.json().error).toMatchObject({status: 409, code: 'INVALID_STATE_TRANSITION'})
  })

  it("an agent's payment past its approval threshold, held for SCA, still waits for the platform after authorization", async () => {
    const c = await fundedPayer(sbx)
    await login(c.id)
    const created = await api(sbx, 'POST', '/agents', {
      name: 'Helper',
      customerId: c.id,
      policy: {
        permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: {currency: 'USD', perTransactionLimit: 10_000},
        approvalThresholds: {currency: 'USD', amount: 500},
      },
    })
    const token = (
      await fetch(`${sbx.url}/agents/device-codes/${created.body.deviceCode.code}/redeem`, {method: 'POST'}).then((r) =>
        r.json(),
      )
    ).accessToken as string
    const bearer = {authorization: `Bearer ${token}`, 'content-type': 'application/json'}
    const q = await fetch(`${sbx.url}/agents/me/quotes`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({
        source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
        destination: {destinationType: 'ACCOUNT', accountId: c.dest},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 2000,
      }),
    }).then((r) => r.json())
    const action = await fetch(`${sbx.url}/agents/me/quotes/${encodeURIComponent(q.id)}/execute`, {
      method: 'POST',
      headers: bearer,
    }).then((r) => r.json())
    expect(action.status).toBe('PENDING_APPROVAL')
    expect(sbx.emu.db.get<{status: string}>('quotes', q.id)!.status).toBe('PENDING_AUTHORIZATION')
    const auth = await sbx.run(['quote', 'authorize', q.id, '--code', '-', '--json'], {input: SECRET_CODE})
    expect(auth.code, auth.stderr).toBe(0)
    expect(sbx.emu.db.get<{status: string; agentId: string}>('transactions', q.transactionId)).toMatchObject({
      status: 'PENDING',
      agentId: created.body.agent.id,
    })
    const ok = await sbx.run(['agents', 'approve', created.body.agent.id, action.id, '--yes', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.json()).toMatchObject({status: 'APPROVED', transaction: {status: 'PROCESSING'}})
  })

  it('F13: a payments-only (TRANSACT) token cannot lock a customer out: security events are MANAGE, its wrong codes fail only its quote', async () => {
    const c = await fundedPayer(sbx)
    await login(c.id)
    const t = await tokenWith(sbx, ['TRANSACT'])
    const failed = () => sbx.emu.db.get<{failedAttempts: number; lockedUntil?: string | null}>('scaStates', c.id)!
    for (let i = 0; i < 5; i++) {
      const r = await call(sbx, t.auth, 'POST', `/sca/record-event?customerId=${c.id}`, {
        eventType: 'FAILED_LOGIN_ATTEMPT',
      })
      expect(r).toMatchObject({
        status: 403,
        body: {code: 'FORBIDDEN', details: {operation: 'recordSecurityEvent', required: ['MANAGE']}},
      })
    }
    expect(failed()).toMatchObject({failedAttempts: 0})
    // Its own payment under SCA: three wrong codes (this sandbox's limit) fail the quote's challenge, not the customer.
    const q = await call(sbx, t.auth, 'POST', '/quotes', {
      source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
      destination: {destinationType: 'ACCOUNT', accountId: c.dest},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    const ex = await call(sbx, t.auth, 'POST', `/quotes/${q.body.id}/execute`)
    expect(ex.body.status).toBe('PENDING_AUTHORIZATION')
    const wrong = () => call(sbx, t.auth, 'POST', `/quotes/${q.body.id}/authorize`, {code: '000000'})
    const first = await wrong()
    expect(first.status).toBe(400)
    expect(first.body.details.errors[0].message).toMatch(/2 attempt\(s\) left before this quote's challenge fails/)
    await wrong()
    const third = await wrong()
    expect(third.body).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: {status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED'},
    })
    expect(sbx.emu.db.get<{status: string}>('quotes', q.body.id)!.status).toBe('FAILED')
    expect(failed()).toMatchObject({failedAttempts: 0})
    expect(failed().lockedUntil ?? null).toBeNull()
    // The customer still logs in, and the platform's own (MANAGE) wrong codes still count towards its lock.
    await login(c.id)
    const managed = await api(sbx, 'POST', `/sca/record-event?customerId=${c.id}`, {eventType: 'FAILED_LOGIN_ATTEMPT'})
    expect(managed.body).toMatchObject({failedAttempts: 1})
  })
})
