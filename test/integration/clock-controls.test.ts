import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {api} from '../helpers/money.js'
import {cleanup, startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({realDelays: true})
})
afterAll(async () => sbx.stop())

const clock = async (on = sbx) => (await api(on, 'GET', '/sandbox/clock')).body

/**
 * Sandboxes whose clock these tests move years ahead keep records a year: with nothing to prune, the
 * housekeeping prune runs once a retention (a day by default), so an advance of five years would run it
 * about 2,000 times, 5 s of every such test spent on a job these tests are not about.
 */
const LONG_RETENTION = {retention: {idempotencyMs: 365 * 86_400_000, eventsMs: 365 * 86_400_000}}

describe('svc sandbox clock', () => {
  it('shows the clock on real time: human and --json', async () => {
    const r = await sbx.run(['sandbox', 'clock', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const c = r.json()
    expect(c).toMatchObject({mode: 'real', offsetMs: 0, pendingJobs: 0, nextJobAt: null})
    expect(Math.abs(Date.parse(c.now) - Date.now())).toBeLessThan(5_000)
    const human = await sbx.run(['sandbox', 'clock'])
    expect(human.stdout).toMatch(/^Now\s+\d{4}-\d{2}-\d{2}T/m)
    expect(human.stdout).toMatch(/^Mode\s+real time \(the machine's\)$/m)
    expect(human.stdout).toMatch(/^Jobs\s+0 pending$/m)
  })

  it('refuses a bad span or instant before any request, naming the field', async () => {
    const before = sbx.requestCount()
    const cases: Array<[string[], string | null]> = [
      [['6'], 'by'],
      [['1h 30m'], 'by'],
      [['30m1h'], 'by'],
      [['--to', '2026-12-01'], 'to'],
      [['--to', 'tomorrow'], 'to'],
      [[], null],
      [['6m', '--to', '2026-12-01T00:00:00Z'], null],
    ]
    for (const [args, field] of cases) {
      const r = await sbx.run(['sandbox', 'clock', 'advance', ...args, '--json'])
      expect(r.code, args.join(' ')).toBe(2)
      const e = errorOf(r)
      if (field) expect(e.details.errors, args.join(' ')).toEqual([expect.objectContaining({field})])
      else expect(e.code).toBe('USAGE')
    }
    expect(sbx.requestCount()).toBe(before)
  })

  it('freeze stands still; advance moves on and never back; unfreeze ticks from there', async () => {
    const frozen = await sbx.run(['sandbox', 'clock', 'freeze', '--json'])
    expect(frozen.code, frozen.stderr).toBe(0)
    const at = Date.parse(frozen.json().now)
    expect(frozen.json().mode).toBe('frozen')
    expect((await clock()).now).toBe(frozen.json().now)
    const customer = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace'})
    expect(customer.body.createdAt).toBe(new Date(at).toISOString()) // timestamps read the sandbox clock

    const human = await sbx.run(['sandbox', 'clock', 'advance', '1h30m'])
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toContain(
      `Advanced   ${new Date(at).toISOString()} -> ${new Date(at + 5_400_000).toISOString()}`,
    )
    expect(human.stdout).toMatch(/^Jobs run\s+0$/m)

    const back = await sbx.run(['sandbox', 'clock', 'advance', '--to', new Date(at).toISOString(), '--json'])
    expect(back.code).toBe(6)
    expect(errorOf(back)).toMatchObject({status: 409, code: 'CLOCK_NEVER_GOES_BACK'})
    expect((await clock()).now).toBe(new Date(at + 5_400_000).toISOString())

    const ticking = await sbx.run(['sandbox', 'clock', 'unfreeze', '--json'])
    expect(ticking.json()).toMatchObject({mode: 'offset'})
    const later = Date.parse((await clock()).now)
    expect(later).toBeGreaterThanOrEqual(at + 5_400_000)
    expect(later).toBeLessThan(at + 5_400_000 + 5_000)
  })

  it('reset is refused while jobs from a later virtual time are pending, unless --force', async () => {
    await sbx.run(['sandbox', 'clock', 'freeze'])
    await sbx.run(['sandbox', 'clock', 'advance', '1d'])
    // A customer created with skipVerificationPaperwork has its decision scheduled: at the virtual time, a day ahead.
    await api(sbx, 'PATCH', '/config', {sandbox: {skipVerificationPaperwork: true}})
    const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Grace Hopper'})
    expect(c.status).toBe(201)
    const refused = await sbx.run(['sandbox', 'clock', 'reset', '--json'])
    expect(refused.code).toBe(6)
    expect(errorOf(refused)).toMatchObject({status: 409, code: 'CLOCK_JOBS_PENDING'})
    expect(errorOf(refused).details).toMatchObject({pendingJobs: 1, kinds: {'kyc.decide': 1}})
    expect((await clock()).mode).toBe('frozen')
    const forced = await sbx.run(['sandbox', 'clock', 'reset', '--force', '--json'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.json()).toMatchObject({mode: 'real', offsetMs: 0, pendingJobs: 1})
  })
})

describe('the clock is durable', () => {
  it('survives a restart; snapshot save/load carries it; svc sandbox reset puts it back on real time', async () => {
    const own = await startSandbox({}, undefined, LONG_RETENTION)
    let restarted: TestSandbox | undefined
    let loaded: TestSandbox | undefined
    const copyDir = mkdtempSync(join(tmpdir(), 'svc-clk-'))
    try {
      await own.run(['sandbox', 'clock', 'freeze'])
      const to = '2031-06-01T12:00:00.000Z'
      expect((await own.run(['sandbox', 'clock', 'advance', '--to', to])).code).toBe(0)
      const snap = join(copyDir, 'snap.db')
      const saved = await own.run(['sandbox', 'snapshot', 'save', snap, '--data-dir', own.dir, '--json'])
      expect(saved.code, saved.stderr).toBe(0)

      restarted = await own.restart()
      expect(await clock(restarted)).toMatchObject({mode: 'frozen', now: to})

      const target = join(copyDir, 'other')
      const load = await own.run(['sandbox', 'snapshot', 'load', snap, '--data-dir', target, '--yes', '--json'])
      expect(load.code, load.stderr).toBe(0)
      loaded = await startSandbox({}, target, LONG_RETENTION)
      expect(await clock(loaded)).toMatchObject({mode: 'frozen', now: to})
      await loaded.stop()
      const wiped = await own.run(['sandbox', 'reset', '--data-dir', target, '--yes', '--json'])
      expect(wiped.code, wiped.stderr).toBe(0)
      loaded = await startSandbox({}, target)
      expect(await clock(loaded)).toMatchObject({mode: 'real', offsetMs: 0})
    } finally {
      await restarted?.stop()
      await loaded?.stop()
      cleanup(copyDir)
    }
  })
})

describe('determinism', () => {
  /** The same journey on a fresh sandbox frozen at the same instant: every timestamp it produces. */
  async function journey(): Promise<string[]> {
    const s = await startSandbox({realDelays: true, skipVerificationPaperwork: true}, undefined, LONG_RETENTION)
    try {
      await api(s, 'POST', '/sandbox/clock/freeze', {})
      await api(s, 'POST', '/sandbox/clock/advance', {to: '2032-02-29T08:00:00Z'})
      const c = await api(s, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace'})
      await api(s, 'POST', '/sandbox/clock/advance', {by: '3s'})
      const after = await api(s, 'GET', `/customers/${c.body.id}`)
      const r = await s.run(['sandbox', 'clock', 'advance', '1m', '--json'])
      const events = (await api(s, 'GET', '/sandbox/events')).body.data as Array<{type: string; timestamp: string}>
      return [
        c.body.createdAt,
        after.body.updatedAt,
        after.body.kycStatus,
        r.json().to,
        ...events.map((e) => `${e.type} ${e.timestamp}`),
      ]
    } finally {
      await s.stop()
    }
  }

  it('the same flow on a frozen clock gives the same timestamps in every run', async () => {
    const first = await journey()
    const second = await journey()
    expect(first).toEqual([
      '2032-02-29T08:00:00.000Z',
      '2032-02-29T08:00:02.000Z',
      'APPROVED',
      '2032-02-29T08:01:03.000Z',
      'CUSTOMER.KYC_PENDING 2032-02-29T08:00:00.000Z',
      'CUSTOMER.KYC_APPROVED 2032-02-29T08:00:02.000Z',
    ])
    expect(second).toEqual(first)
  })
})
