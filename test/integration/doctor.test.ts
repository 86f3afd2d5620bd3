import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const env = (extra: Record<string, string | undefined> = {}) => ({...sbx.env, SVC_SANDBOX_DIR: sbx.dir, ...extra})
const byName = (r: {json(): any}) => Object.fromEntries(r.json().checks.map((c: any) => [c.name, c]))

describe('svc doctor', () => {
  it('a healthy local sandbox: every check OK, exit 0, one line each', async () => {
    const r = await svc(['doctor'], {env: env()})
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.map((l) => l.split(/\s{2,}/)[0])).toEqual([
      '✓ profile',
      '✓ credentials',
      '✓ clock',
      '✓ proxy',
      '✓ tls',
      '✓ local sandbox',
      '✓ webhooks',
      '✓ sandbox database',
      '✓ card exceptions',
      '✓ key store',
      '✓ expired keys',
      '✓ quorum key',
      '✓ node',
    ])
    expect(r.stdout).toMatch(
      /profile\s+local \(built-in\) · local · http:\/\/127\.0\.0\.1:\d+\/2025-10-13 · secret from the SVC_CLIENT_SECRET environment variable/,
    )
    expect(r.stdout).not.toContain(sbx.emu.credentials.clientSecret)

    const json = await svc(['doctor', '--json'], {env: env()})
    expect(json.code).toBe(0)
    expect(json.json()).toMatchObject({ok: true})
    expect(json.json().checks.every((c: any) => c.status === 'ok')).toBe(true)
  })

  it('a wrong secret: the credentials check names HTTP 401 with a hint, exit 1; the secret is never printed', async () => {
    const r = await svc(['doctor'], {env: env({SVC_CLIENT_SECRET: 'not-the-secret-42'})})
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ credentials\s+GET \/config failed: .*\(HTTP 401\)/)
    expect(r.stdout).toMatch(/→ .*(svc login|SVC_CLIENT_SECRET|token)/i)
    expect(r.stdout + r.stderr).not.toContain('not-the-secret-42')
    expect(r.stderr).toContain('1 problem(s) found.')
    const json = await svc(['doctor', '--json'], {env: env({SVC_CLIENT_SECRET: 'not-the-secret-42'})})
    expect(json.code).toBe(1)
    expect(json.json().ok).toBe(false)
    expect(byName(json).credentials).toMatchObject({status: 'problem'})
  })

  it('a skewed clock (injected): names how far off it is, with a hint, exit 1', async () => {
    const r = await svc(['doctor', '--json'], {env: env({SVC_TEST_CLOCK_OFFSET_MS: String(10 * 60_000)})})
    expect(r.code).toBe(1)
    expect(byName(r).clock).toMatchObject({
      status: 'problem',
      detail: expect.stringMatching(/^this machine's clock is (9m 5\d|10m [0-9])s? ?.*ahead of the Service$/),
    })
    expect(byName(r).clock.hint).toMatch(/NTP/)
    const behind = await svc(['doctor', '--json'], {env: env({SVC_TEST_CLOCK_OFFSET_MS: String(-2 * 3600_000)})})
    expect(byName(behind).clock.detail).toMatch(/2h 0m behind the Service|1h 59m behind the Service/)
  })

  it('loose key store permissions and expired keys are reported without deleting anything', async () => {
    const dir = join(sbx.env.SVC_CONFIG_DIR, 'keystore')
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const file = join(dir, 'session-expired.json')
    writeFileSync(file, JSON.stringify({version: 1, expiresAt: '2020-01-01T00:00:00Z'}), {mode: 0o644})
    chmodSync(file, 0o644)
    try {
      const r = await svc(['doctor', '--json'], {env: env()})
      expect(r.code).toBe(1)
      expect(byName(r)['key store']).toMatchObject({
        status: 'problem',
        detail: 'readable by others: session-expired.json',
      })
      expect(byName(r)['expired keys']).toMatchObject({
        status: 'warn',
        detail: '1 expired session key(s) still on disk',
      })
    } finally {
      chmodSync(file, 0o600)
    }
  })

  it('the proxy in use is shown with its credentials hidden; HTTPS_PROXY does not apply to an http:// URL', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the proxy is refused at once and nothing leaves the machine.
    const r = await svc(['doctor', '--json'], {env: env({HTTP_PROXY: 'http://bob:hunter2@127.0.0.1:9'})})
    expect(byName(r).proxy).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+ is reached through http:\/\/\[REDACTED\]@127\.0\.0\.1:9 \(HTTP_PROXY, a CONNECT tunnel\)$/,
      ),
    })
    expect(byName(r).credentials.detail).toMatch(
      /^GET \/config failed: Cannot reach the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:9 \(HTTP_PROXY\): ECONNREFUSED$/,
    )
    expect(r.stdout + r.stderr).not.toMatch(/hunter2|bob/)
    const https = await svc(['doctor', '--json'], {env: env({HTTPS_PROXY: 'http://bob:hunter2@127.0.0.1:9'})})
    expect(byName(https).proxy.detail).toMatch(/^none configured: svc connects directly to http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('a production profile without a pinned quorum key is a problem', async () => {
    const r = await svc(['doctor', '--json'], {env: env({SVC_ENVIRONMENT: 'production'})})
    expect(byName(r)['quorum key']).toMatchObject({status: 'problem'})
    expect(byName(r)['local sandbox']).toMatchObject({status: 'skipped'})
  })

  it('a stopped sandbox: names it with the command that starts it, exit 1', async () => {
    const stopped = await startSandbox()
    const stoppedEnv = {...stopped.env, SVC_SANDBOX_DIR: stopped.dir}
    await stopped.stop()
    const r = await svc(['doctor'], {env: stoppedEnv})
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ local sandbox\s+not running at http:\/\/127\.0\.0\.1:\d+/)
    expect(r.stdout).toContain('→ Start it with `svc sandbox serve --detach`')
    expect(r.stdout).toMatch(/✗ credentials\s+GET \/config failed: The local sandbox is not running/)
  })

  it('issue 29 F17: a card EXCEPTION is listed as needing attention (a warning, exit 0) until it is resolved', async () => {
    const {api, approvedCustomer, until} = await import('../helpers/money.js')
    const c = await approvedCustomer(sbx, ['USD'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 10_000})
    const card = (
      await api(sbx, 'POST', '/cards', {cardholderId: c.id, form: 'VIRTUAL', fundingSources: [c.account('USD')]})
    ).body.id as string
    await until(
      () => sbx.emu.db.get<{state: string}>('cards', card)!.state,
      (s) => s === 'ACTIVE',
    )
    const auth = {amount: 1_000, currency: {code: 'USD'}, merchant: {descriptor: 'SHOP 006'}}
    expect((await api(sbx, 'POST', `/sandbox/cards/${card}/simulate/authorization`, auth)).status).toBe(202)
    const tx = sbx.emu.db
      .all<{id: string; status: string}>('cardTransactions')
      .find((t) => t.status === 'EXCEPTION')!.id
    const r = await svc(['doctor', '--json'], {env: env()})
    expect(r.code, r.stdout).toBe(0)
    expect(byName(r)['card exceptions']).toMatchObject({
      status: 'warn',
      detail: `1 card transaction(s) in EXCEPTION keep their holds: ${tx} (holds 1000)`,
      hint: expect.stringContaining('svc sandbox card exception_resolution'),
    })
    const resolve = {cardTransactionId: tx, resolution: 'RETURN'}
    expect((await api(sbx, 'POST', `/sandbox/cards/${card}/simulate/exception_resolution`, resolve)).status).toBe(202)
    expect(byName(await svc(['doctor', '--json'], {env: env()}))['card exceptions']).toMatchObject({status: 'ok'})
  })

  it('a damaged sandbox database: names the file and the way back, exit 1', async () => {
    const damaged = await startSandbox()
    const damagedEnv = {...damaged.env, SVC_SANDBOX_DIR: damaged.dir}
    await damaged.stop()
    const file = join(damaged.dir, 'sandbox.db')
    writeFileSync(file, readFileSync(file).subarray(0, 1000))
    const r = await svc(['doctor', '--json'], {env: damagedEnv})
    expect(r.code).toBe(1)
    const check = byName(r)['sandbox database']
    expect(check.status).toBe('problem')
    expect(check.detail).toContain(file)
    expect(check.hint).toMatch(/svc sandbox restore/)
  })
})
