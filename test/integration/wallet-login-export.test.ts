import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {walletSeed} from '../../src/emulator/domain/wallet/state.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {onTerminal} from '../helpers/pty.js'
import {walletSandbox} from '../helpers/wallet-sandbox.js'
import {fileMode} from '../helpers/files.js'

const fx = walletSandbox({walletProcessingDelayMs: 150})

const keystore = () => join(fx.sbx.env.SVC_CONFIG_DIR, 'keystore')

describe('svc wallet login (EMAIL_OTP) and export', () => {
  it('logs in with the sandbox OTP, stores the session key 0600 in a 0700 dir, and exports the exact seed', async () => {
    const {accountId, emailCredentialId} = await fx.api.createCustomer()
    const out = await fx.cliLogin(accountId)
    expect(out.session).toMatchObject({accountId, type: 'EMAIL_OTP', id: expect.stringMatching(/^Session:/)})
    expect(out.session.encryptedSessionSigningKey).toBeUndefined()
    expect(out.key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
    // The emulator holds that public key as the session key.
    expect(fx.sbx.emu.db.get<{publicKey: string}>('walletSessions', out.session.id)?.publicKey).toBe(out.key.publicKey)

    expect(fileMode(keystore())).toBe(0o700)
    const files = readdirSync(keystore())
    expect(files).toHaveLength(1)
    expect(fileMode(join(keystore(), files[0]))).toBe(0o600)
    const record = JSON.parse(readFileSync(join(keystore(), files[0]), 'utf8'))
    expect(record).toMatchObject({
      kind: 'session',
      accountId,
      credentialId: emailCredentialId,
      sessionId: out.session.id,
      publicKey: out.key.publicKey,
    })

    const keys = await svc(['wallet', 'keys', 'list', '--json'], {env: fx.sbx.env})
    expect(keys.json().data).toEqual([
      expect.objectContaining({publicKey: out.key.publicKey, sessionId: out.session.id, encrypted: false}),
    ])
    expect(keys.stdout).not.toContain(record.privateKey.plain)

    const file = join(fx.sbx.env.HOME, 'seed.txt')
    const exp = await svc(['wallet', 'export', accountId, '--out', file, '--json'], {env: fx.sbx.env})
    expect(exp.code, exp.stderr).toBe(0)
    const summary = exp.json()
    expect(summary).toMatchObject({accountId, wordCount: 12, envelope: 'pinned', out: file})
    expect(fileMode(file)).toBe(0o600)
    const mnemonic = readFileSync(file, 'utf8').trim()
    expect(mnemonic).toBe(walletSeed(fx.sbx.emu, accountId))
    expect(exp.stdout + exp.stderr).not.toContain(mnemonic.split(' ').slice(0, 3).join(' '))

    // No overwrite without --force, refused before any request.
    const before = fx.sbx.requestCount()
    const again = await svc(['wallet', 'export', accountId, '--out', file], {env: fx.sbx.env})
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('exists already')
    expect(fx.sbx.requestCount()).toBe(before)
    const forced = await svc(['wallet', 'export', accountId, '--out', file, '--force', '--json'], {env: fx.sbx.env})
    expect(forced.code, forced.stderr).toBe(0)
    expect(readFileSync(file, 'utf8').trim()).toBe(mnemonic)
  })

  it('a wrong OTP is refused with exit 4 and stores nothing', async () => {
    const {accountId} = await fx.api.createCustomer()
    const count = () => (existsSync(keystore()) ? readdirSync(keystore()).length : 0)
    const before = count()
    const r = await svc(['wallet', 'login', accountId, '--otp-stdin', '--json'], {env: fx.sbx.env, input: '123456\n'})
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      status: 401,
      reason: expect.stringContaining('Invalid OTP'),
      hint: expect.stringContaining('Check the code'),
    })
    expect(r.stdout + r.stderr).not.toContain('123456')
    expect(count()).toBe(before)
  })

  it('a malformed OTP on stdin is bad input: exit 2 naming otp, no session, no key stored, the code not echoed', async () => {
    const {accountId} = await fx.api.createCustomer()
    const count = () => (existsSync(keystore()) ? readdirSync(keystore()).length : 0)
    const stored = count()
    const sessions = fx.sbx.emu.db.all('walletSessions').length
    const r = await svc(['wallet', 'login', accountId, '--otp-stdin', '--json'], {env: fx.sbx.env, input: 'ab!\n'})
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors).toEqual([expect.objectContaining({field: 'otp'})])
    expect(r.stdout + r.stderr).not.toContain('ab!')
    expect(count()).toBe(stored)
    expect(fx.sbx.emu.db.all('walletSessions')).toHaveLength(sessions)
  })

  it('two concurrent logins in two svc processes both keep their keys', async () => {
    const a = await fx.api.createCustomer()
    const b = await fx.api.createCustomer()
    const [ra, rb] = await Promise.all([fx.cliLogin(a.accountId), fx.cliLogin(b.accountId)])
    const keys = (await svc(['wallet', 'keys', 'list', '--json'], {env: fx.sbx.env}))
      .json()
      .data.map((k: {sessionId: string}) => k.sessionId)
    expect(keys).toEqual(expect.arrayContaining([ra.session.id, rb.session.id]))
  })

  it('--verify-only prints word count and fingerprint, never the mnemonic; off a TTY the screen path is refused', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.cliLogin(accountId)
    const r = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: fx.sbx.env})
    expect(r.code, r.stderr).toBe(0)
    const seed = walletSeed(fx.sbx.emu, accountId)!
    const {createHash} = await import('node:crypto')
    expect(r.json()).toEqual({
      accountId,
      wordCount: 12,
      fingerprint: createHash('sha256').update(seed).digest('hex').slice(0, 8),
      envelope: 'pinned',
    })
    expect(r.stdout + r.stderr).not.toContain(seed.split(' ')[0] + ' ' + seed.split(' ')[1])
    const before = fx.sbx.requestCount()
    const screen = await svc(['wallet', 'export', accountId], {env: fx.sbx.env})
    expect(screen.code).toBe(2)
    expect(screen.stderr).toContain('only on a terminal')
    expect(fx.sbx.requestCount()).toBe(before)
  })

  it('shows the mnemonic on a terminal only after the warning and a confirmation', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.cliLogin(accountId)
    const screen = async (answer: string) =>
      (
        await onTerminal(['wallet', 'export', accountId], {
          env: fx.sbx.env,
          answers: [[/Show the recovery phrase/, answer]],
        })
      ).raw
    const seed = walletSeed(fx.sbx.emu, accountId)!
    const refused = await screen('n\r')
    expect(refused).toContain('full control of this wallet')
    expect(refused).not.toContain(seed)
    const shown = await screen('y\r')
    expect(shown.indexOf('full control of this wallet')).toBeLessThan(shown.indexOf(seed))
    expect(shown).toContain(seed)
  })

  it('exports under forced PROCESSING by re-sending the identical signed request', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.cliLogin(accountId)
    await fx.api.setSandbox({walletProcessingCount: 1})
    const file = join(fx.sbx.env.HOME, `processing-${Date.now()}.txt`)
    const r = await svc(['wallet', 'export', accountId, '--out', file, '--json'], {env: fx.sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('still processing')
    expect(readFileSync(file, 'utf8').trim()).toBe(walletSeed(fx.sbx.emu, accountId))
    expect(fx.sbx.emu.settings().walletProcessingCount).toBe(0)
    const events = fx.sbx.emu.db
      .all<{event: {type: string; data: {operationType: string; resourceId: string}}}>('events')
      .map((e) => e.event)
      .filter((e) => e.type === 'wallet_operation.completed')
    expect(events.some((e) => e.data.operationType === 'wallet.export' && e.data.resourceId === accountId)).toBe(true)
  })

  it('the random still-processing rate (here 1: every signed leg) is ridden out by login and export alike', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.api.setSandbox({walletProcessingRate: 1})
    try {
      const logged = await svc(['wallet', 'login', accountId, '--json'], {env: fx.sbx.env})
      expect(logged.code, logged.stderr).toBe(0)
      expect(logged.stderr).toContain('still processing')
      const r = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: fx.sbx.env})
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('still processing')
      expect(r.json().wordCount).toBe(12)
      const settled = fx.sbx.emu.db
        .all<{event: {type: string; data: {operationType: string; resourceId: string}}}>('events')
        .map((e) => e.event)
        .filter((e) => e.type === 'wallet_operation.completed' && e.data.resourceId === accountId)
      expect(settled.map((e) => e.data.operationType)).toContain('wallet.export')
    } finally {
      await fx.api.setSandbox({walletProcessingRate: 0})
    }
  })

  it('exits 8 with a resume hint when the operation is still processing at --timeout', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.cliLogin(accountId)
    await fx.api.setSandbox({walletProcessingCount: 1, walletProcessingDelayMs: 5000})
    try {
      const r = await svc(['wallet', 'export', accountId, '--verify-only', '--timeout', '1s', '--json'], {
        env: fx.sbx.env,
      })
      expect(r.code).toBe(8)
      expect(r.json().error).toMatchObject({
        code: 'WALLET_OPERATION_PROCESSING',
        hint: expect.stringContaining(`svc wallet export ${accountId}`),
      })
    } finally {
      await fx.api.setSandbox({walletProcessingDelayMs: 150, walletProcessingCount: 0})
    }
  })

  it('starts a fresh export when the challenge lapses while processing (rule 4)', async () => {
    const {accountId} = await fx.api.createCustomer()
    await fx.cliLogin(accountId)
    await fx.api.setSandbox({walletProcessingCount: 1, walletProcessingDelayMs: 2500, signedChallengeTtlSeconds: 1})
    try {
      const r = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: fx.sbx.env})
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('lapsed')
      expect(r.json().wordCount).toBe(12)
    } finally {
      await fx.api.setSandbox({walletProcessingDelayMs: 150, signedChallengeTtlSeconds: 300})
    }
  })

  it('refuses export without a stored session, naming the login to run', async () => {
    const {accountId} = await fx.api.createCustomer()
    const before = fx.sbx.requestCount()
    const r = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: fx.sbx.env})
    expect(r.code).toBe(4)
    expect(r.json().error).toMatchObject({
      code: 'WALLET_SESSION_REQUIRED',
      hint: expect.stringContaining(`svc wallet login ${accountId}`),
    })
    expect(fx.sbx.requestCount()).toBe(before)
  })

  it('encrypts stored keys with SVC_KEYSTORE_PASSPHRASE and needs it to sign', async () => {
    const {accountId} = await fx.api.createCustomer()
    const env = {SVC_KEYSTORE_PASSPHRASE: 'correct horse battery'}
    const out = await fx.cliLogin(accountId, [], env)
    const file = readdirSync(keystore())
      .map((f) => JSON.parse(readFileSync(join(keystore(), f), 'utf8')))
      .find((r) => r.sessionId === out.session.id)
    expect(file.privateKey.sealed).toMatchObject({kdf: 'scrypt'})
    expect(file.privateKey.plain).toBeUndefined()
    const locked = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: fx.sbx.env})
    expect(locked.code).toBe(4)
    expect(locked.json().error.code).toBe('KEYSTORE_LOCKED')
    const wrong = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {
      env: {...fx.sbx.env, SVC_KEYSTORE_PASSPHRASE: 'nope'},
    })
    expect(wrong.json().error.code).toBe('KEYSTORE_PASSPHRASE_WRONG')
    const ok = await svc(['wallet', 'export', accountId, '--verify-only', '--json'], {env: {...fx.sbx.env, ...env}})
    expect(ok.code, ok.stderr).toBe(0)
    // A sealed store stays sealed: a login without the passphrase is refused before any session exists.
    const sessions = () => fx.sbx.emu.db.all('walletSessions').length
    const before = sessions()
    const plain = await svc(['wallet', 'login', accountId, '--json'], {env: fx.sbx.env})
    expect(plain.code).toBe(4)
    expect(plain.json().error).toMatchObject({
      code: 'KEYSTORE_LOCKED',
      hint: expect.stringContaining('SVC_KEYSTORE_PASSPHRASE'),
    })
    expect(sessions()).toBe(before)
    // Another passphrase would split the store between two: refused (exit 4) before any session exists or any file is written.
    const files = readdirSync(keystore()).sort()
    const other = await svc(['wallet', 'login', accountId, '--json'], {
      env: {...fx.sbx.env, SVC_KEYSTORE_PASSPHRASE: 'Zebra-Quartz-77'},
    })
    expect(other.code).toBe(4)
    expect(other.json().error).toMatchObject({
      code: 'KEYSTORE_PASSPHRASE_MISMATCH',
      hint: expect.stringContaining('svc wallet keys purge'),
    })
    expect(other.stdout + other.stderr).not.toContain('Zebra-Quartz-77')
    expect(sessions()).toBe(before)
    expect(readdirSync(keystore()).sort()).toEqual(files)
    expect((await svc(['wallet', 'keys', 'purge', '--all-environments', '--json'], {env: fx.sbx.env})).code).toBe(0)
  })

  it('purges keys on request and expired keys on the way', async () => {
    const {accountId} = await fx.api.createCustomer()
    const out = await fx.cliLogin(accountId)
    const path = readdirSync(keystore())
      .map((f) => join(keystore(), f))
      .find((p) => JSON.parse(readFileSync(p, 'utf8')).sessionId === out.session.id)!
    const record = JSON.parse(readFileSync(path, 'utf8'))
    writeFileSync(path, JSON.stringify({...record, expiresAt: new Date(Date.now() - 1000).toISOString()}))
    const list = await svc(['wallet', 'keys', 'list', '--account', accountId, '--json'], {env: fx.sbx.env})
    expect(list.json().data).toEqual([])
    expect(readdirSync(keystore()).includes(path.split('/').pop()!)).toBe(false)
    await fx.cliLogin(accountId)
    const purge = await svc(['wallet', 'keys', 'purge', '--account', accountId, '--json'], {env: fx.sbx.env})
    expect(purge.json()).toEqual({removed: 1})
  })
})
