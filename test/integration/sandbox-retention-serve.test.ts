// `svc sandbox serve`'s retention flags reach the sandbox: a real serve process with a short
// idempotency retention and a small emulator.log, and the refusal of bad values before anything starts.
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {client, serve, started} from '../helpers/process-sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
})

describe('svc sandbox serve retention flags', () => {
  for (const mode of ['one sandbox', 'a --multi server'])
    it(`--idempotency-retention, --log-max-size and --log-keep apply to the served sandbox (${mode})`, async () => {
      const home = tempDir('svc-ret-serve-')
      const dataDir = join(home, 'data')
      const s = await serve(home, dataDir, [
        ...(mode === 'one sandbox' ? [] : ['--multi']),
        '--decision-delay',
        '0',
        '--idempotency-retention',
        '1h',
        '--log-max-size',
        '1KB',
        '--log-keep',
        '1',
      ])
      const api = client(s.ready)
      try {
        expect((await api.call('POST', '/sandbox/clock/freeze')).status).toBe(200)
        expect((await api.call('PATCH', '/config', {sandbox: {skipVerificationPaperwork: true}})).status).toBe(200)
        // Each customer's KYC decision emits two events, each a log line (`webhook <type> <id>`).
        for (let i = 0; i < 12; i++)
          expect(
            (await api.call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: `Log ${i}`})).status,
          ).toBe(201)
        const holder = (await api.call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Key'})).body.id
        const link = (key: string) =>
          api.call('POST', `/customers/${encodeURIComponent(holder)}/kyc-link`, {}, {'idempotency-key': key})
        const first = (await link('K')).body.kycUrl
        expect((await link('K')).body.kycUrl).toBe(first)
        expect((await api.call('POST', '/sandbox/clock/advance', {by: '59m'})).status).toBe(200)
        expect((await link('K')).body.kycUrl).toBe(first) // within the hour: a replay
        expect((await api.call('POST', '/sandbox/clock/advance', {by: '2m'})).status).toBe(200)
        expect((await link('K')).body.kycUrl).not.toBe(first) // past it: a fresh link

        const log = join(dataDir, 'emulator.log')
        expect(existsSync(`${log}.1`)).toBe(true)
        expect(existsSync(`${log}.2`)).toBe(false)
        for (const f of [log, `${log}.1`]) expect(statSync(f).size).toBeLessThanOrEqual(1024)
        expect(readFileSync(`${log}.1`, 'utf8')).toMatch(/ webhook CUSTOMER\.KYC_/)
      } finally {
        await api.close()
        s.child.kill('SIGTERM')
      }
    })

  it('--detach passes the flags on; its log lines go to emulator.log (rotated), not to sandbox.out (never rotated)', async () => {
    const home = tempDir('svc-ret-detach-')
    const dataDir = join(home, 'd')
    const env = {HOME: home, SVC_CONFIG_DIR: join(home, 'c'), SVC_SANDBOX_DIR: dataDir, SVC_NO_INPUT: '1'}
    // In-process: the server --detach starts is the process under test.
    const r = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--log-max-size', '1KB', '--json'], {
      env,
    })
    expect(r.code, r.stderr).toBe(0)
    const api = client(r.json())
    try {
      // Each endpoint change sends a TEST event: a `webhook TEST ...` log line (~100 bytes).
      for (let i = 0; i < 15; i++)
        expect((await api.call('PATCH', '/config', {webhookEndpoint: `http://127.0.0.1:9/h${i}`})).status).toBe(200)
    } finally {
      await api.close()
      expect((await svcInProcess(['sandbox', 'stop'], {env})).code).toBe(0)
    }
    const log = join(dataDir, 'emulator.log')
    expect(readFileSync(`${log}.1`, 'utf8')).toMatch(/ webhook TEST /)
    expect(statSync(log).size).toBeLessThanOrEqual(1024)
    expect(readFileSync(join(dataDir, 'sandbox.out'), 'utf8')).not.toMatch(/webhook TEST/)
  }, 30_000)

  it('bad values are refused before anything starts, each named', async () => {
    const dataDir = join(tempDir('svc-ret-serve-'), 'data')
    const r = await svcInProcess(
      [
        'sandbox',
        'serve',
        '--data-dir',
        dataDir,
        '--idempotency-retention',
        'soon',
        '--event-retention',
        '30',
        '--log-max-size',
        '12',
        '--json',
      ],
      {env: {HOME: dataDir}},
    )
    expect(r.code, r.stderr).toBe(2)
    const error = errorOf(r)
    expect((error.details.errors as Array<{field: string}>).map((e) => e.field)).toEqual([
      'idempotency-retention',
      'event-retention',
      'log-max-size',
    ])
    expect(existsSync(dataDir)).toBe(false)
  })
})
