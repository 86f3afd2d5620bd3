import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {mintOidcToken, unixNow} from '../helpers/authenticator.js'
import {passkeyAddArgs, passkeySignArgs, walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({walletProcessingDelayMs: 150})

const identity = {iss: 'https://accounts.google.com', aud: 'svc-tests', sub: 'user-7', email: 'oauth.user@example.com'}
const credentialsOf = async (accountId: string) =>
  (await fx.sbx.json(['wallet', 'credentials', 'list', accountId])).data as Array<{
    id: string
    type: string
    nickname: string
  }>

describe('SMS_OTP', () => {
  it('logging in with SMS_OTP before one was added says to add one, and how (exit 5)', async () => {
    const w = await fx.cliWallet({phoneNumber: '+14155550124'})
    const r = await fx.run(['wallet', 'login', w.accountId, '--type', 'SMS_OTP'])
    expect(r.code).toBe(5)
    expect(r.stderr).toContain(`Error: ${w.accountId} has no SMS_OTP credential`)
    expect(r.stderr).toContain(
      `Hint: Add one first with \`svc wallet credentials add ${w.accountId} --type SMS_OTP\` (it sends codes to the customer's phoneNumber)`,
    )
    expect(r.stderr).not.toContain('Pick one with --credential')
  })

  it('adds an SMS_OTP credential (activated at once) and logs in with it', async () => {
    const w = await fx.cliWallet({phoneNumber: '+14155550123'})
    const added = await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP'])
    expect(added.credential).toMatchObject({type: 'SMS_OTP', nickname: '+14155550123'})
    expect(added.credential.otpEncryptionTargetBundle).toBeUndefined()
    expect(added.session.id).toMatch(/^Session:/)
    const login = await fx.sbx.json(['wallet', 'login', w.accountId, '--type', 'SMS_OTP'])
    expect(login.session).toMatchObject({type: 'SMS_OTP', credentialId: added.credential.id})
    const again = await fx.run(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP', '--json'])
    expect(again.code).toBe(6)
    expect(again.json().error).toMatchObject({
      code: 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
      hint: expect.stringContaining('revoke the existing one'),
    })
  })
})

describe('OAUTH', () => {
  it('adds an OAUTH credential, prints the nonce, logs in with a fresh token bound to it', async () => {
    const w = await fx.cliWallet()
    const added = await fx.sbx.json(
      ['wallet', 'credentials', 'add', w.accountId, '--type', 'OAUTH', '--oidc-token-stdin'],
      {input: mintOidcToken({...identity, iat: unixNow(), exp: unixNow() + 600})},
    )
    expect(added.credential).toMatchObject({type: 'OAUTH', nickname: 'oauth.user@example.com'})
    expect(added.next).toContain('--print-nonce')
    const cred = added.credential.id
    const prepared = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--print-nonce'])
    expect(prepared.nonce).toMatch(/^[0-9a-f]{64}$/)
    const {createHash} = await import('node:crypto')
    expect(prepared.nonce).toBe(createHash('sha256').update(prepared.clientPublicKey).digest('hex'))

    const before = fx.sbx.requestCount()
    const wrongNonce = await fx.run(
      ['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin', '--json'],
      mintOidcToken({...identity, iat: unixNow(), exp: unixNow() + 600, nonce: 'ab'.repeat(32)}),
    )
    expect(wrongNonce.code).toBe(2)
    expect(wrongNonce.json().error.details.errors).toEqual([expect.objectContaining({field: 'oidcToken.nonce'})])
    const stale = await fx.run(
      ['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin', '--json'],
      mintOidcToken({...identity, iat: unixNow() - 120, exp: unixNow() + 600, nonce: prepared.nonce}),
    )
    expect(stale.code).toBe(2)
    expect(stale.json().error.details.errors).toEqual([
      expect.objectContaining({field: 'oidcToken.iat', message: expect.stringContaining('cached tokens fail')}),
    ])
    const malformed = await fx.run(
      ['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin', '--json'],
      'not.a-jwt',
    )
    expect(malformed.code).toBe(2)
    expect(fx.sbx.requestCount() - before).toBeLessThanOrEqual(2) // only the credential lookup of the nonce check

    const login = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin'], {
      input: mintOidcToken({...identity, iat: unixNow(), exp: unixNow() + 600, nonce: prepared.nonce}),
    })
    expect(login.session).toMatchObject({type: 'OAUTH', credentialId: cred})
    expect(login.key.publicKey).toBe(
      fx.sbx.emu.db.get<{publicKey: string}>('walletSessions', login.session.id)?.publicKey,
    )
  })

  it('re-authentication after expiry: only verify with a fresh token (no new credential); the used token is not accepted twice', async () => {
    const w = await fx.cliWallet()
    const claims = {...identity, sub: 'reauth-1'}
    const cred = (
      await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'OAUTH', '--oidc-token-stdin'], {
        input: mintOidcToken({...claims, iat: unixNow(), exp: unixNow() + 600}),
      })
    ).credential.id
    const first = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--print-nonce'])
    const token = mintOidcToken({...claims, iat: unixNow(), exp: unixNow() + 600, nonce: first.nonce})
    const s1 = (
      await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin'], {input: token})
    ).session
    // The session expires on the service.
    const stored = fx.sbx.emu.db.get<Record<string, unknown>>('walletSessions', s1.id)!
    fx.sbx.emu.db.put('walletSessions', s1.id, {...stored, expiresAt: new Date(Date.now() - 1000).toISOString()})
    const credentials = (await credentialsOf(w.accountId)).length
    const replay = await fx.run(
      ['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin', '--json'],
      token,
    )
    // Its nonce is bound to the spent client key: refused before sending (the service also refuses replays).
    expect(replay.code).toBe(2)
    expect(replay.json().error.details.errors).toEqual([expect.objectContaining({field: 'oidcToken.nonce'})])
    const again = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--print-nonce'])
    const s2 = (
      await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin'], {
        input: mintOidcToken({...claims, iat: unixNow(), exp: unixNow() + 600, nonce: again.nonce}),
      })
    ).session
    expect(s2).toMatchObject({type: 'OAUTH', credentialId: cred})
    expect(s2.id).not.toBe(s1.id)
    expect(await credentialsOf(w.accountId)).toHaveLength(credentials)
  })

  it('legacy mode: an uncompressed client key gets the session key sealed back, decrypted locally', async () => {
    const w = await fx.cliWallet()
    const cred = (
      await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'OAUTH', '--oidc-token-stdin'], {
        input: mintOidcToken({...identity, sub: 'legacy-1', iat: unixNow(), exp: unixNow() + 600}),
      })
    ).credential.id
    const prepared = await fx.sbx.json([
      'wallet',
      'login',
      w.accountId,
      '--credential',
      cred,
      '--print-nonce',
      '--legacy-key',
    ])
    expect(prepared.clientPublicKey).toMatch(/^04[0-9a-f]{128}$/)
    const login = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin'], {
      input: mintOidcToken({...identity, sub: 'legacy-1', iat: unixNow(), exp: unixNow() + 600, nonce: prepared.nonce}),
    })
    expect(login.session.encryptedSessionSigningKey).toBeUndefined()
    // The stored key is the decrypted session key: it signs an export the service accepts.
    expect(login.key.publicKey).toBe(
      fx.sbx.emu.db.get<{publicKey: string}>('walletSessions', login.session.id)?.publicKey,
    )
    const exp = await fx.sbx.json(['wallet', 'export', w.accountId, '--verify-only'])
    expect(exp.wordCount).toBe(12)
  })
})

describe('PASSKEY with the software authenticator', () => {
  it('registers, adds, logs in through challenge -> assertion, and refuses an assertion for another challenge', async () => {
    const w = await fx.cliWallet()
    const reg = await fx.sbx.json(['sandbox', 'passkey', 'create'])
    const regFile = join(fx.sbx.env.HOME, `reg-${reg.credentialId}.json`)
    writeFileSync(regFile, JSON.stringify(reg))
    const added = await fx.sbx.json(passkeyAddArgs(w.accountId, 'Ops laptop', `@${regFile}`))
    expect(added.credential).toMatchObject({type: 'PASSKEY', nickname: 'Ops laptop', credentialId: reg.credentialId})
    const again = await fx.sbx.json(['sandbox', 'passkey', 'create', '--credential-id', reg.credentialId])
    expect(again.credentialId).toBe(reg.credentialId)
    const dup = await fx.run(passkeyAddArgs(w.accountId, 'Again', JSON.stringify(again), '--json'))
    expect(dup.code).toBe(6)
    expect(dup.json().error.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS')

    const cred = added.credential.id
    const started = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred])
    expect(started).toMatchObject({
      step: 'PASSKEY_CHALLENGE',
      credentialId: reg.credentialId,
      requestId: expect.stringMatching(/^Request:/),
    })
    const wrong = await fx.sbx.json(passkeySignArgs(reg.credentialId, 'some-other-challenge'))
    const wrongFile = join(fx.sbx.env.HOME, 'wrong.json')
    writeFileSync(wrongFile, JSON.stringify(wrong))
    const before = fx.sbx.requestCount()
    const refused = await fx.run([
      'wallet',
      'login',
      w.accountId,
      '--credential',
      cred,
      '--assertion',
      `@${wrongFile}`,
      '--json',
    ])
    expect(refused.code).toBe(2)
    expect(refused.json().error.details.errors[0].message).toContain('another challenge')
    expect(fx.sbx.requestCount() - before).toBe(1) // the credential lookup only; no verify

    const assertion = await fx.sbx.json(passkeySignArgs(reg.credentialId, started.challenge))
    const login = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--assertion', '-'], {
      input: JSON.stringify(assertion),
    })
    expect(login.session).toMatchObject({type: 'PASSKEY', credentialId: cred})
    const keys = (await fx.sbx.json(['wallet', 'keys', 'list', '--account', w.accountId])).data
    expect(keys.filter((k: {kind: string}) => k.kind === 'pending')).toEqual([])
  })

  it('says clearly when the authenticator holds no such credential', async () => {
    const r = await fx.run(passkeySignArgs('bm9wZQ', 'x', '--json'))
    expect(r.code).toBe(5)
    expect(r.json().error.code).toBe('PASSKEY_NOT_FOUND')
  })

  it('keeps authenticator credentials in a 0600 file', async () => {
    const reg = await fx.sbx.json(['sandbox', 'passkey', 'create'])
    const {statSync} = await import('node:fs')
    const file = join(fx.sbx.env.SVC_CONFIG_DIR, 'passkeys', `${reg.credentialId}.json`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).privateKey).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('revoking credentials', () => {
  it('revokes with a session of a different credential, drops its sessions, and refuses the last one locally', async () => {
    const w = await fx.cliWallet({phoneNumber: '+14155550199'})
    const sms = (await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP'])).credential.id
    // Revoking EMAIL_OTP needs a session of another credential: the SMS session signs.
    const r = await fx.sbx.json(['wallet', 'credentials', 'revoke', w.emailCredentialId!, '--account', w.accountId])
    expect(r).toEqual({revoked: w.emailCredentialId, sessionsRemoved: 1})
    expect((await credentialsOf(w.accountId)).map((c) => c.id)).toEqual([sms])
    expect(
      (await fx.sbx.json(['wallet', 'sessions', 'list', w.accountId])).data.every(
        (s: {credentialId: string}) => s.credentialId === sms,
      ),
    ).toBe(true)

    const before = fx.sbx.requestCount()
    const last = await fx.run(['wallet', 'credentials', 'revoke', sms, '--account', w.accountId, '--json'])
    expect(last.code).toBe(6)
    expect(last.json().error).toMatchObject({
      code: 'LAST_CREDENTIAL',
      hint: expect.stringContaining('Add another credential first'),
    })
    expect(fx.sbx.requestCount() - before).toBe(1)
    expect((await credentialsOf(w.accountId)).map((c) => c.id)).toEqual([sms])
  })

  it('refuses to revoke with only a session of the credential itself, naming the login to run', async () => {
    const w = await fx.api.createCustomer({phoneNumber: '+14155550111'})
    await fx.sbx.json(['wallet', 'login', w.accountId])
    await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP', '--no-activate'])
    const r = await fx.run([
      'wallet',
      'credentials',
      'revoke',
      w.emailCredentialId!,
      '--account',
      w.accountId,
      '--json',
    ])
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      code: 'WALLET_SESSION_REQUIRED',
      hint: expect.stringContaining('--credential'),
    })
    expect(await credentialsOf(w.accountId)).toHaveLength(2)
  })
})

describe('tied email change through svc customers update', () => {
  it('EMAIL_OTP: a second one is refused; after revoking the first a new one is added and activated; a taken address is a 409', async () => {
    const a = await fx.cliWallet({phoneNumber: '+14155550166'})
    const before = (await credentialsOf(a.accountId)).length
    const dup = await fx.run(['wallet', 'credentials', 'add', a.accountId, '--type', 'EMAIL_OTP', '--json'])
    expect(dup.code).toBe(6)
    expect(dup.json().error).toMatchObject({
      code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      hint: expect.stringContaining('revoke the existing one'),
    })
    expect(await credentialsOf(a.accountId)).toHaveLength(before)
    await fx.sbx.json(['wallet', 'credentials', 'add', a.accountId, '--type', 'SMS_OTP'])
    await fx.sbx.json(['wallet', 'credentials', 'revoke', a.emailCredentialId!, '--account', a.accountId])
    const added = await fx.sbx.json(['wallet', 'credentials', 'add', a.accountId, '--type', 'EMAIL_OTP'])
    expect(added.credential).toMatchObject({type: 'EMAIL_OTP', id: expect.not.stringMatching(a.emailCredentialId!)})
    // Activated like the first of its type: a session of the new credential, its key stored locally.
    expect(fx.sbx.emu.db.get<{credentialId: string}>('walletSessions', added.session.id)).toMatchObject({
      credentialId: added.credential.id,
    })
    const keys = (await fx.sbx.json(['wallet', 'keys', 'list', '--account', a.accountId])).data as Array<{
      sessionId: string
    }>
    expect(keys.map((k) => k.sessionId)).toContain(added.session.id)

    const b = await fx.cliWallet()
    const taken = fx.sbx.emu.db.get<{email: string}>('customers', b.customerId)!.email
    const mine = fx.sbx.emu.db.get<{email: string}>('customers', a.customerId)!.email
    const r = await fx.run(['customers', 'update', a.customerId, '--email', taken, '--json'])
    expect(r.code).toBe(6)
    expect(r.json().error).toMatchObject({
      code: 'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
      status: 409,
      hint: expect.stringContaining('another address'),
    })
    expect(fx.sbx.emu.db.get<{email: string}>('customers', a.customerId)!.email).toBe(mine)
    expect((await credentialsOf(a.accountId)).find((c) => c.type === 'EMAIL_OTP')?.nickname).toBe(mine)
  })

  it('changes the customer and the EMAIL_OTP credential together, signed by the wallet session', async () => {
    const w = await fx.cliWallet()
    const r = await fx.sbx.json(['customers', 'update', w.customerId, '--email', 'moved@example.com'])
    expect(r.email).toBe('moved@example.com')
    expect((await credentialsOf(w.accountId)).find((c) => c.type === 'EMAIL_OTP')?.nickname).toBe('moved@example.com')
  })

  it('a tied phone change (SMS_OTP) is signed the same way; a phone another SMS_OTP uses is a 409 with nothing changed', async () => {
    const a = await fx.cliWallet({phoneNumber: '+14155550181'})
    await fx.sbx.json(['wallet', 'credentials', 'add', a.accountId, '--type', 'SMS_OTP'])
    const moved = await fx.sbx.json(['customers', 'update', a.customerId, '--phone', '+14155550182'])
    expect(moved.phoneNumber).toBe('+14155550182')
    expect((await credentialsOf(a.accountId)).find((c) => c.type === 'SMS_OTP')?.nickname).toBe('+14155550182')
    const b = await fx.cliWallet({phoneNumber: '+14155550183'})
    await fx.sbx.json(['wallet', 'credentials', 'add', b.accountId, '--type', 'SMS_OTP', '--no-activate'])
    const r = await fx.run(['customers', 'update', a.customerId, '--phone', '+14155550183', '--json'])
    expect(r.code).toBe(6)
    expect(r.json().error).toMatchObject({
      code: 'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
      status: 409,
      hint: expect.stringContaining('phone number'),
    })
    expect(fx.sbx.emu.db.get<{phoneNumber: string}>('customers', a.customerId)?.phoneNumber).toBe('+14155550182')
    expect((await credentialsOf(a.accountId)).find((c) => c.type === 'SMS_OTP')?.nickname).toBe('+14155550182')
  })

  it('without a wallet session the change is refused and nothing changes', async () => {
    const w = await fx.api.createCustomer({email: 'stay@example.com'})
    const r = await fx.run(['customers', 'update', w.customerId, '--email', 'elsewhere@example.com', '--json'])
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      code: 'WALLET_SESSION_REQUIRED',
      hint: expect.stringContaining(`svc wallet login ${w.accountId}`),
    })
    expect(fx.sbx.emu.db.get<{email: string}>('customers', w.customerId)?.email).toBe('stay@example.com')
  })

  it('409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when the credential set changes after the challenge', async () => {
    const w = await fx.cliWallet({phoneNumber: '+14155550177'})
    // The update's signed leg is held in PROCESSING (no timer can settle it during the test), so
    // the order is fixed: challenge -> signed leg -> credential added -> settle -> re-send sees 409.
    await fx.api.setSandbox({walletProcessingCount: 1, walletProcessingDelayMs: 3_600_000})
    try {
      const pending = fx.run([
        'customers',
        'update',
        w.customerId,
        '--email',
        'raced@example.com',
        '--timeout',
        '60s',
        '--json',
      ])
      type Pending = {id: string; operation: string; resourceId: string; processing?: {settled: boolean}}
      const held = () =>
        fx.sbx.emu.db
          .all<Pending>('walletRequests')
          .find((p) => p.operation === 'customer.update' && p.resourceId === w.customerId && p.processing)
      for (let waited = 0; !held(); waited += 20) {
        if (waited > 20_000) throw new Error('the update never reached its signed leg')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      // Meanwhile another operator adds a credential to the wallet (the trigger is spent: this one runs at once).
      const sms = (
        await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'SMS_OTP', '--no-activate'])
      ).credential.id
      const settled = await fx.api.call('POST', `/sandbox/wallet-requests/${encodeURIComponent(held()!.id)}/settle`)
      expect(settled.body).toMatchObject({settled: true, operationType: 'customer.update', resultStatus: 409})
      const r = await pending
      expect(r.code).toBe(6)
      expect(r.json().error).toMatchObject({
        code: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
        status: 409,
        hint: expect.stringContaining('re-run'),
      })
      // Nothing changed: neither the customer nor the EMAIL_OTP credential took the new address.
      expect(fx.sbx.emu.db.get<{email: string}>('customers', w.customerId)?.email).not.toBe('raced@example.com')
      const creds = await credentialsOf(w.accountId)
      expect(creds.find((c) => c.type === 'EMAIL_OTP')?.nickname).not.toBe('raced@example.com')
      expect(creds.map((c) => c.id)).toContain(sms)
      const again = await fx.api.call('POST', `/sandbox/wallet-requests/${encodeURIComponent(held()!.id)}/settle`)
      expect([again.status, again.body.code]).toEqual([409, 'REQUEST_NOT_PROCESSING'])
      const unknown = await fx.api.call('POST', '/sandbox/wallet-requests/Request:nope/settle')
      expect([unknown.status, unknown.body.code]).toEqual([404, 'REQUEST_NOT_FOUND'])
    } finally {
      await fx.api.setSandbox({walletProcessingDelayMs: 150, walletProcessingCount: 0})
    }
  })
})

describe('bad input: a clear error, the exit code of product.md, nothing changed', () => {
  const state = () => ({
    sessions: fx.sbx.emu.db.all<{revoked?: boolean}>('walletSessions').filter((s) => !s.revoked).length,
    credentials: fx.sbx.emu.db.all('walletCredentials').length,
  })

  it('an unknown credential id: login and revoke exit 5 naming it; a malformed id exits 2 before any request', async () => {
    const w = await fx.cliWallet()
    const unknownId = 'AuthMethod:00000000-0000-0000-0000-000000000000'
    const before = state()
    const login = await fx.run(['wallet', 'login', w.accountId, '--credential', unknownId, '--json'])
    expect(login.code).toBe(5)
    expect(login.json().error).toMatchObject({
      code: 'AUTH_METHOD_NOT_FOUND',
      reason: expect.stringContaining(unknownId),
      hint: expect.stringContaining(`svc wallet credentials list ${w.accountId}`),
    })
    const revoke = await fx.run(['wallet', 'credentials', 'revoke', unknownId, '--account', w.accountId, '--json'])
    expect(revoke.code).toBe(5)
    expect(revoke.json().error).toMatchObject({
      code: 'AUTH_METHOD_NOT_FOUND',
      reason: expect.stringContaining(unknownId),
    })
    expect(state()).toEqual(before)

    const count = fx.sbx.requestCount()
    const malformed = await fx.run(['wallet', 'login', w.accountId, '--credential', 'Session:abc', '--json'])
    expect(malformed.code).toBe(2)
    expect(malformed.stdout + malformed.stderr).toContain('AuthMethod')
    const badRevoke = await fx.run(['wallet', 'credentials', 'revoke', 'not-an-id', '--account', w.accountId, '--json'])
    expect(badRevoke.code).toBe(2)
    expect(fx.sbx.requestCount()).toBe(count)
    expect(state()).toEqual(before)
  })

  it('OAUTH tokens refused locally (malformed, stale iat, wrong nonce) create no session and burn no token', async () => {
    const w = await fx.cliWallet()
    const cred = (
      await fx.sbx.json(['wallet', 'credentials', 'add', w.accountId, '--type', 'OAUTH', '--oidc-token-stdin'], {
        input: mintOidcToken({...identity, sub: 'bad-input-1', iat: unixNow(), exp: unixNow() + 600}),
      })
    ).credential.id
    const {nonce} = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--print-nonce'])
    const before = state()
    const cases: Array<[string, string]> = [
      ['not.a-jwt', 'oidcToken'],
      [
        mintOidcToken({...identity, sub: 'bad-input-1', iat: unixNow() - 120, exp: unixNow() + 600, nonce}),
        'oidcToken.iat',
      ],
      [
        mintOidcToken({...identity, sub: 'bad-input-1', iat: unixNow(), exp: unixNow() + 600, nonce: 'cd'.repeat(32)}),
        'oidcToken.nonce',
      ],
    ]
    for (const [token, field] of cases) {
      const r = await fx.run(
        ['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin', '--json'],
        token,
      )
      expect(r.code, token).toBe(2)
      expect(r.json().error.details.errors.map((e: {field: string}) => e.field)).toContain(field)
      expect(r.stdout + r.stderr).not.toContain(token.split('.')[1] ?? token)
    }
    expect(state()).toEqual(before)
    // The good token afterwards still works: nothing was consumed by the refusals.
    const good = await fx.sbx.json(['wallet', 'login', w.accountId, '--credential', cred, '--oidc-token-stdin'], {
      input: mintOidcToken({...identity, sub: 'bad-input-1', iat: unixNow(), exp: unixNow() + 600, nonce}),
    })
    expect(good.session).toMatchObject({type: 'OAUTH', credentialId: cred})
  })
})
