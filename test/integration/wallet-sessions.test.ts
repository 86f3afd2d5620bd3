import {describe, expect, it} from 'vitest'
import {generateP256KeyPair, bytesToHex, verifyStamp} from '../../src/lib/wallet/index.js'
import {sandboxTime} from '../helpers/fake-time.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'

const fx = walletSandbox({walletProcessingDelayMs: 150})

const exportKey = () => bytesToHex(generateP256KeyPair().publicKeyUncompressed)

describe('sessions and credentials', () => {
  it('lists credentials and sessions, marking the ones with a local key', async () => {
    const w = await fx.cliWallet()
    const creds = await fx.run(['wallet', 'credentials', 'list', w.accountId, '--json'])
    expect(creds.json().data).toEqual([expect.objectContaining({id: w.credentialId, type: 'EMAIL_OTP'})])
    const sessions = await fx.run(['wallet', 'sessions', 'list', w.accountId, '--json'])
    expect(sessions.json().data).toEqual([expect.objectContaining({id: w.session.id, localKey: true})])
    const human = await fx.run(['wallet', 'sessions', 'list', w.accountId])
    expect(human.stdout).toMatch(new RegExp(`${w.session.id}\\tEMAIL_OTP\\t.*\\tyes`))
  })

  it('refreshes a session: signed by it, a new key replaces the old one locally', async () => {
    const w = await fx.cliWallet()
    const r = await fx.run(['wallet', 'sessions', 'refresh', w.session.id, '--json']) // the wallet comes from the key store
    expect(r.code, r.stderr).toBe(0)
    const out = r.json()
    expect(out.session.id).not.toBe(w.session.id)
    expect(out.key.publicKey).not.toBe(w.key.publicKey)
    expect(fx.sbx.emu.db.get<{publicKey: string}>('walletSessions', out.session.id)?.publicKey).toBe(out.key.publicKey)
    const keys = (await fx.run(['wallet', 'keys', 'list', '--account', w.accountId, '--json'])).json().data
    expect(keys.map((k: {sessionId: string}) => k.sessionId)).toEqual([out.session.id])
  })

  it('revokes a session with itself as signer and drops its local key', async () => {
    const w = await fx.cliWallet()
    const r = await fx.run(['wallet', 'sessions', 'revoke', w.session.id, '--account', w.accountId, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toEqual({revoked: w.session.id, signedBy: w.session.id})
    expect(fx.sbx.emu.db.get<{revoked: boolean}>('walletSessions', w.session.id)?.revoked).toBe(true)
    expect((await fx.run(['wallet', 'keys', 'list', '--account', w.accountId, '--json'])).json().data).toEqual([])
  })

  it('sends a fresh OTP with credentials challenge', async () => {
    const w = await fx.cliWallet()
    const r = await fx.run(['wallet', 'credentials', 'challenge', w.credentialId, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({
      id: w.credentialId,
      type: 'EMAIL_OTP',
      otpEncryptionTargetBundle: expect.any(String),
    })
  })

  it('a rapid OTP re-issue is rate limited: svc waits Retry-After and gets the code', async () => {
    const w = await fx.cliWallet()
    await fx.api.setSandbox({challengeMinIntervalMs: 1500})
    try {
      // svc's waits pass on the sandbox clock, which measures the interval: both see the Retry-After go by.
      // (The first challenge may wait too: the login's own challenge was just sent.)
      const time = sandboxTime(fx.sbx)
      const first = await fx.sbx.run(['wallet', 'credentials', 'challenge', w.credentialId, '--json'], time)
      expect(first.code, first.stderr).toBe(0)
      const started = time.now()
      const sleptBefore = time.slept()
      const second = await fx.sbx.run(['wallet', 'credentials', 'challenge', w.credentialId, '--json'], time)
      expect(second.code, second.stderr).toBe(0)
      expect(second.stderr).toMatch(/Rate limited; waiting \d s \(Retry-After\)/)
      expect(time.slept() - sleptBefore).toBeGreaterThanOrEqual(900)
      expect(time.now() - started).toBeGreaterThanOrEqual(900)
      const impatient = await fx.run([
        'wallet',
        'credentials',
        'challenge',
        w.credentialId,
        '--timeout',
        '100ms',
        '--json',
      ])
      expect(impatient.code).toBe(7)
    } finally {
      await fx.api.setSandbox({challengeMinIntervalMs: 0})
    }
  })

  it('a challenge that lapses while a non-export operation processes: exit 8, and the service reconciles it', async () => {
    const w = await fx.cliWallet()
    await fx.api.setSandbox({signedChallengeTtlSeconds: 1, walletProcessingCount: 1, walletProcessingDelayMs: 2000})
    try {
      // On the sandbox clock: svc's re-sends pass the challenge's 1 s TTL there, and then the 2 s of processing.
      const time = sandboxTime(fx.sbx)
      const r = await fx.sbx.run(['wallet', 'privacy', w.accountId, '--enabled', 'true', '--json'], time)
      expect(r.code).toBe(8)
      expect(r.json().error).toMatchObject({
        code: 'SIGNED_CHALLENGE_EXPIRED',
        hint: expect.stringContaining('reconciles'),
      })
      expect(fx.sbx.emu.db.get<{privateEnabled?: boolean}>('internalAccounts', w.accountId)?.privateEnabled).not.toBe(
        true,
      )
      await time.sleep(2500)
      expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', w.accountId)?.privateEnabled).toBe(true)
    } finally {
      await fx.api.setSandbox({signedChallengeTtlSeconds: 300, walletProcessingDelayMs: 150})
    }
  })
})

describe('interop: svc wallet stamp and svc api', () => {
  it('a session revoked elsewhere: the 401 WALLET_SIGNATURE_INVALID says what happened and which login to run; nothing changes', async () => {
    const w = await fx.cliWallet()
    const stored = fx.sbx.emu.db.get<Record<string, unknown>>('walletSessions', w.session.id)!
    fx.sbx.emu.db.put('walletSessions', w.session.id, {...stored, revoked: true}) // another operator revoked it
    const r = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'true', '--json'])
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: expect.stringMatching(/does not verify with an active session key.*was revoked/),
      hint: expect.stringContaining('svc wallet login'),
    })
    expect(fx.sbx.emu.db.get<{privateEnabled?: boolean}>('internalAccounts', w.accountId)?.privateEnabled).not.toBe(
      true,
    )
    const signed = await fx.run([
      'api',
      'PATCH',
      `/internal-accounts/${w.accountId}`,
      '--data',
      '{"privateEnabled":true}',
      '--sign',
      '--json',
    ])
    expect(signed.code).toBe(4)
    expect(signed.json().error).toMatchObject({
      code: 'WALLET_SIGNATURE_INVALID',
      hint: expect.stringContaining('svc wallet login'),
    })
  })

  it('a hand-run signed retry succeeds once; the Request-Id cannot be reused', async () => {
    const w = await fx.cliWallet()
    const path = `/internal-accounts/${w.accountId}/export`
    const data = JSON.stringify({clientPublicKey: exportKey()})
    const leg1 = await fx.run(['api', 'POST', path, '--data', data, '--json'])
    expect(leg1.code, leg1.stderr).toBe(0)
    const ch = leg1.json()
    expect(ch).toMatchObject({payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/)})
    const st = await fx.run(['wallet', 'stamp', w.accountId, '--payload', '-', '--json'], ch.payloadToSign)
    expect(st.code, st.stderr).toBe(0)
    expect(st.json()).toMatchObject({publicKey: w.key.publicKey, sessionId: w.session.id})
    expect(verifyStamp(st.json().value, ch.payloadToSign)).toBe(true)
    const headers = [
      '--header',
      `Service-Wallet-Signature: ${st.json().value}`,
      '--header',
      `Request-Id: ${ch.requestId}`,
    ]
    const leg2 = await fx.run(['api', 'POST', path, '--data', data, ...headers, '--json'])
    expect(leg2.code, leg2.stderr).toBe(0)
    expect(leg2.json()).toMatchObject({id: w.accountId, encryptedWalletCredentials: expect.any(String)})
    const reuse = await fx.run(['api', 'POST', path, '--data', data, ...headers, '--json'])
    expect(reuse.code).toBe(4)
    expect(reuse.json().error).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: expect.stringContaining('single use'),
    })
  })

  it('each header 401 of spec 5.6 reaches the operator with exit 4 and a hint saying what to do', async () => {
    const w = await fx.cliWallet()
    const path = `/internal-accounts/${w.accountId}`
    const data = '{"privateEnabled":true}'
    const leg1 = (await fx.run(['api', 'PATCH', path, '--data', data, '--json'])).json()
    const good = (await fx.run(['wallet', 'stamp', w.accountId, '--payload', leg1.payloadToSign, '--json'])).json()
      .value
    const cases: Array<[string[], string, RegExp]> = [
      [['--header', `Request-Id: ${leg1.requestId}`], 'WALLET_SIGNATURE_MISSING', /svc wallet login/],
      [
        ['--header', 'Service-Wallet-Signature: bm90LWEtc3RhbXA', '--header', `Request-Id: ${leg1.requestId}`],
        'WALLET_SIGNATURE_MALFORMED',
        /stamp again/,
      ],
      [['--header', `Service-Wallet-Signature: ${good}`], 'REQUEST_ID_MISSING', /Request-Id/],
    ]
    for (const [headers, code, hint] of cases) {
      const r = await fx.run(['api', 'PATCH', path, '--data', data, ...headers, '--json'])
      expect(r.code, code).toBe(4)
      expect(r.json().error, code).toMatchObject({status: 401, code, hint: expect.stringMatching(hint)})
    }
    expect(fx.sbx.emu.db.get<{privateEnabled?: boolean}>('internalAccounts', w.accountId)?.privateEnabled).not.toBe(
      true,
    )
    // The challenge survived the refusals: the correct retry still goes through once.
    const ok = await fx.run([
      'api',
      'PATCH',
      path,
      '--data',
      data,
      '--header',
      `Service-Wallet-Signature: ${good}`,
      '--header',
      `Request-Id: ${leg1.requestId}`,
      '--json',
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect(fx.sbx.emu.db.get<{privateEnabled?: boolean}>('internalAccounts', w.accountId)?.privateEnabled).toBe(true)
  })

  it('a stamp over another body is refused with WALLET_SIGNATURE_BODY_MISMATCH', async () => {
    const w = await fx.cliWallet()
    const path = `/internal-accounts/${w.accountId}/export`
    const leg1 = (
      await fx.run(['api', 'POST', path, '--data', JSON.stringify({clientPublicKey: exportKey()}), '--json'])
    ).json()
    const st = (await fx.run(['wallet', 'stamp', w.accountId, '--payload', leg1.payloadToSign, '--json'])).json()
    const other = await fx.run([
      'api',
      'POST',
      path,
      '--data',
      JSON.stringify({clientPublicKey: exportKey()}),
      '--header',
      `Service-Wallet-Signature: ${st.value}`,
      '--header',
      `Request-Id: ${leg1.requestId}`,
      '--json',
    ])
    expect(other.code).toBe(4)
    expect(other.json().error).toMatchObject({
      code: 'WALLET_SIGNATURE_BODY_MISMATCH',
      hint: expect.stringContaining('body changed after signing'),
    })
  })

  it('svc api --sign runs the whole dance, including PROCESSING re-sends', async () => {
    const w = await fx.cliWallet()
    await fx.api.setSandbox({walletProcessingCount: 1})
    const r = await fx.run([
      'api',
      'PATCH',
      `/internal-accounts/${w.accountId}`,
      '--data',
      '{"privateEnabled":true}',
      '--sign',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({id: w.accountId, privateEnabled: true})
    expect(r.stderr).toContain('still processing')
    expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', w.accountId)?.privateEnabled).toBe(true)
  })

  it('svc wallet privacy toggles privateEnabled through the signed retry', async () => {
    const w = await fx.cliWallet()
    const before = fx.sbx.requestCount()
    const dry = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'true', '--dry-run', '--json'])
    expect(dry.json()).toMatchObject({
      dryRun: true,
      request: {method: 'PATCH', url: expect.stringContaining('/internal-accounts/')},
    })
    expect(fx.sbx.requestCount()).toBe(before)
    const on = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'true', '--json'])
    expect(on.code, on.stderr).toBe(0)
    expect(fx.sbx.emu.db.get<{privateEnabled: boolean}>('internalAccounts', w.accountId)?.privateEnabled).toBe(true)
    const off = await fx.run(['wallet', 'privacy', w.accountId, '--enabled', 'false', '--json'])
    expect(off.json()).toMatchObject({privateEnabled: false})
  })
})
