import {spawn} from 'node:child_process'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {KeyStore, toPublic} from '../../../src/lib/keystore.js'
import {Secret} from '../../../src/lib/secret.js'
import {tempDir} from '../../helpers/temp-dirs.js'

const DIST_KEYSTORE = fileURLToPath(new URL('../../../dist/lib/keystore.js', import.meta.url))
const BASE = 'http://127.0.0.1:4010/2025-10-13'
const PRIV = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721'

function store(dir: string, now = () => Date.parse('2026-01-01T00:00:00Z'), env: NodeJS.ProcessEnv = {}) {
  return new KeyStore({dir, baseUrl: BASE, now, env})
}

const session = (n: number, over: Record<string, unknown> = {}) => ({
  kind: 'session' as const,
  accountId: 'InternalAccount:a',
  credentialId: 'AuthMethod:c',
  credentialType: 'EMAIL_OTP',
  sessionId: `Session:${n}`,
  publicKey: '02' + n.toString(16).padStart(64, '0'),
  expiresAt: '2026-01-01T00:15:00Z',
  privateKey: new Secret(PRIV),
  ...over,
})

/** A separate svc-like process writing `count` keys with distinct session ids, as fast as it can. */
function writer(dir: string, from: number, count: number, env: Record<string, string> = {}): Promise<number> {
  const code = `
    import {KeyStore} from ${JSON.stringify(DIST_KEYSTORE)}
    import {Secret} from ${JSON.stringify(DIST_KEYSTORE.replace('keystore.js', 'secret.js'))}
    const ks = new KeyStore({dir: ${JSON.stringify(dir)}, baseUrl: ${JSON.stringify(BASE)}, env: ${JSON.stringify({CI: '1', ...env})}})
    for (let i = ${from}; i < ${from + count}; i++) {
      try {
        ks.save({kind: 'session', accountId: 'InternalAccount:a', credentialId: 'AuthMethod:c', credentialType: 'EMAIL_OTP',
          sessionId: 'Session:' + i, publicKey: '02' + i.toString(16).padStart(64, '0'), expiresAt: new Date(Date.now() + 600000).toISOString(), privateKey: new Secret('${PRIV}')})
      } catch (e) {
        if (e.code !== 'KEYSTORE_LOCKED') throw e
      }
      ks.list()
    }`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {stdio: ['ignore', 'ignore', 'inherit']})
    child.on('error', reject)
    child.on('close', (c) => resolve(c ?? -1))
  })
}

describe('key store', () => {
  it('keeps every key written by two concurrent processes (no lost update), all 0600 in a 0700 dir', async () => {
    const dir = join(tempDir('svc-ks-'), 'keystore')
    const codes = await Promise.all([writer(dir, 0, 40), writer(dir, 1000, 40)])
    expect(codes).toEqual([0, 0])
    const files = readdirSync(dir)
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(files).toHaveLength(80)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600)
    const ids = new KeyStore({dir, baseUrl: BASE, env: {}}).list().map((r) => r.sessionId)
    expect(new Set(ids).size).toBe(80)
  })

  it('never ends up with sealed and plain keys side by side when logins with and without a passphrase race', async () => {
    for (let run = 0; run < 3; run++) {
      const dir = join(tempDir('svc-ks-'), 'keystore')
      const codes = await Promise.all([
        writer(dir, 0, 15),
        writer(dir, 1000, 3, {SVC_KEYSTORE_PASSPHRASE: 'pass phrase'}),
        writer(dir, 2000, 15),
      ])
      expect(codes).toEqual([0, 0, 0])
      const records = new KeyStore({dir, baseUrl: BASE, env: {}}).list()
      const kinds = new Set(records.map((r) => ('sealed' in r.privateKey ? 'sealed' : 'plain')))
      expect([...kinds]).toEqual(['sealed'])
      // the sealed writer's keys are all there; plain ones were sealed or refused, never stored plain
      expect(
        records.filter((r) => Number(r.sessionId!.split(':')[1]) >= 1000 && Number(r.sessionId!.split(':')[1]) < 2000),
      ).toHaveLength(3)
    }
  }, 60_000)

  it('purges expired keys when listing and never lists another base URL unless asked', () => {
    const dir = join(tempDir('svc-ks-'), 'keystore')
    let now = Date.parse('2026-01-01T00:00:00Z')
    const ks = store(dir, () => now)
    ks.save(session(1))
    ks.save(session(2, {expiresAt: '2026-01-01T00:05:00Z'}))
    new KeyStore({dir, baseUrl: 'https://api.example.com/2025-10-13', now: () => now, env: {}}).save(session(3))
    expect(ks.list().map((r) => r.sessionId)).toEqual(['Session:1', 'Session:2'])
    expect(ks.list({allBaseUrls: true})).toHaveLength(3)
    now = Date.parse('2026-01-01T00:06:00Z')
    expect(ks.list().map((r) => r.sessionId)).toEqual(['Session:1'])
    expect(readdirSync(dir)).toHaveLength(2)
  })

  it('picks signers by rule: other credential, exact session, enough time left', () => {
    const dir = join(tempDir('svc-ks-'), 'keystore')
    const ks = store(dir)
    ks.save(session(1, {credentialId: 'AuthMethod:email'}))
    ks.save(session(2, {credentialId: 'AuthMethod:sms', expiresAt: '2026-01-01T00:10:00Z'}))
    expect(ks.findSession({accountId: 'InternalAccount:a'})?.sessionId).toBe('Session:1')
    expect(ks.findSession({accountId: 'InternalAccount:a', excludeCredentialId: 'AuthMethod:email'})?.sessionId).toBe(
      'Session:2',
    )
    expect(ks.findSession({accountId: 'InternalAccount:a', sessionId: 'Session:2'})?.sessionId).toBe('Session:2')
    expect(
      ks.findSession({accountId: 'InternalAccount:a', sessionId: 'Session:2', minRemainingMs: 11 * 60_000}),
    ).toBeUndefined()
    expect(ks.findSession({accountId: 'InternalAccount:other'})).toBeUndefined()
  })

  it('seals private keys with scrypt + AES-256-GCM under a passphrase; public fields stay listable', async () => {
    const dir = join(tempDir('svc-ks-'), 'keystore')
    const sealed = store(dir, undefined, {SVC_KEYSTORE_PASSPHRASE: 'pass phrase'})
    const saved = sealed.save(session(7))
    expect(saved.encrypted).toBe(true)
    const raw = readFileSync(join(dir, `${saved.id}.json`), 'utf8')
    expect(raw).not.toContain(PRIV)
    expect(JSON.parse(raw).privateKey.sealed).toMatchObject({kdf: 'scrypt', n: 32768})
    const record = sealed.list()[0]
    expect((await sealed.privateKey(record)).reveal()).toBe(PRIV)
    await expect(
      store(dir, undefined, {SVC_KEYSTORE_PASSPHRASE: 'wrong', CI: '1'}).privateKey(record),
    ).rejects.toMatchObject({code: 'KEYSTORE_PASSPHRASE_WRONG', exitCode: 4})
    await expect(store(dir, undefined, {CI: '1'}).privateKey(record)).rejects.toMatchObject({
      code: 'KEYSTORE_LOCKED',
      exitCode: 4,
    })
    // A sealed key moved into another record does not open (the record identity is authenticated).
    const other = {...record, publicKey: '03' + 'ab'.repeat(32)}
    await expect(sealed.privateKey(other)).rejects.toMatchObject({code: 'KEYSTORE_PASSPHRASE_WRONG'})
    expect(JSON.stringify(toPublic(record))).not.toMatch(/sealed|plain|ct/)
  })
})
