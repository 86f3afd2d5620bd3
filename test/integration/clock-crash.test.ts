// Issue 31: the clock never goes back after a crash or a stop during `clock advance`. Each job's
// unit records the clock at that job's time, so what a job committed is never ahead of the clock,
// and a repeated advance finishes the jobs left; a full disk or an outside lock stops an advance
// with an error saying how far it got, never a 200 with jobs left behind nor a hang. Real processes.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {fillDisk, holdWriteLock} from '../helpers/faults.js'
import {client, serve, started, type Api} from '../helpers/process-sandbox.js'
import {eventually} from '../helpers/wait.js'
import {startReceiver} from '../helpers/webhook-receiver.js'

const home = mkdtempSync(join(tmpdir(), 'svc-clock-crash-'))
afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
})

const CUSTOMERS = 30

/** Customers whose KYC decision is a job due 60 s (virtual) after submission, each at its own time. */
async function pendingDecisions(api: Api): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < CUSTOMERS; i++) {
    const c = await api('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `clock-${i}`,
      fullName: `Clock ${i}`,
      currencies: ['USD'],
    })
    expect(c.status, JSON.stringify(c.body)).toBe(201)
    const link = await api('POST', `/customers/${c.body.id}/kyc-link`, {})
    expect((await api('POST', `/sandbox/hosted/kyc/${link.body.token}`)).status).toBe(200)
    // A second apart: the decisions fall due one after another across the advance.
    expect((await api('POST', '/sandbox/clock/advance', {by: '1s'})).status).toBe(200)
    ids.push(c.body.id)
  }
  return ids
}

const latestEventAt = async (api: Api): Promise<number> => {
  const page = await api('GET', '/sandbox/events?order=desc&limit=1')
  return Date.parse(page.body.data[0].timestamp)
}

describe('the clock under kill -9 and SIGTERM mid-advance', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const)
    it(`${signal}: after restart the clock is at or past the newest committed event; a repeated advance finishes`, async () => {
      const dataDir = join(home, signal)
      // A receiver taking 150 ms per event during the advance: each decision's webhook holds its step, so the
      // advance takes seconds. Before it (the set-up's events) and after the kill nothing needs it slow.
      let delayMs = 0
      const receiver = await startReceiver(() => ({status: 200, delayMs}))
      let s = await serve(home, dataDir, ['--decision-delay', '60000'])
      let api = client(s.ready)
      try {
        expect((await api.call('POST', '/sandbox/clock/freeze')).status).toBe(200)
        expect((await api.call('PATCH', '/config', {webhookEndpoint: receiver.url})).status).toBe(200)
        const ids = await pendingDecisions(api.call)
        const target = new Date(Date.parse((await api.call('GET', '/sandbox/clock')).body.now) + 120_000).toISOString()
        expect(receiver.got.filter((g) => g.type === 'CUSTOMER.KYC_APPROVED')).toHaveLength(0)
        delayMs = 150
        const advance = api.call('POST', '/sandbox/clock/advance', {to: target}).catch(() => undefined)
        // Killed once some decisions committed and others have not.
        await eventually(() => receiver.got.filter((g) => g.type === 'CUSTOMER.KYC_APPROVED').length >= 5, 30_000)
        const exited = new Promise((r) => s.child.once('exit', r))
        s.child.kill(signal)
        await exited
        await advance
        await api.close()
        delayMs = 0

        s = await serve(home, dataDir)
        api = client(s.ready)
        const clock = (await api.call('GET', '/sandbox/clock')).body
        const newest = await latestEventAt(api.call)
        expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(newest)
        expect(clock.mode).toBe('frozen')
        const approvedBefore = ids.filter((id) =>
          receiver.got.some((g) => g.type === 'CUSTOMER.KYC_APPROVED' && g.object === id),
        )
        expect(approvedBefore.length).toBeLessThan(CUSTOMERS) // the kill really came mid-advance
        // A new write is stamped at or after everything already in the log.
        const after = await api.call('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: 'after-restart',
          fullName: 'After Restart',
          currencies: ['USD'],
        })
        expect(Date.parse(after.body.createdAt)).toBeGreaterThanOrEqual(newest)
        // The same advance again finishes what was left, once each.
        const again = await api.call('POST', '/sandbox/clock/advance', {to: target})
        expect(again.status, JSON.stringify(again.body)).toBe(200)
        expect(again.body.to).toBe(target)
        for (const id of ids) expect((await api.call('GET', `/customers/${id}`)).body.kycStatus).toBe('APPROVED')
        const approvals = (await api.call('GET', '/sandbox/events?type=CUSTOMER.KYC_APPROVED&limit=1000')).body.data
        expect(approvals).toHaveLength(CUSTOMERS)
      } finally {
        await api.close()
        s.child.kill('SIGKILL')
        await receiver.close()
      }
    }, 120_000)
})

/** Submits the customers, then answers the advance to 120 s (virtual) later: where the decisions fall due. */
async function setUp(api: Api): Promise<{ids: string[]; target: string}> {
  expect((await api('POST', '/sandbox/clock/freeze')).status).toBe(200)
  const ids = await pendingDecisions(api)
  const target = new Date(Date.parse((await api('GET', '/sandbox/clock')).body.now) + 120_000).toISOString()
  return {ids, target}
}

describe('an advance under a full disk and an outside lock', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'a full disk (tmpfs; needs root): 507 saying how far it got, at once; the jobs run once space returns',
    async () => {
      const mnt = mkdtempSync(join(tmpdir(), 'svc-clock-full-'))
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mnt])
      const s = await serve(home, join(mnt, 'data'), ['--decision-delay', '60000'])
      const api = client(s.ready)
      try {
        const {ids, target} = await setUp(api.call)
        const before = (await api.call('GET', '/sandbox/clock')).body
        const filler = fillDisk(mnt)
        const t0 = Date.now()
        const stopped = await api.call('POST', '/sandbox/clock/advance', {to: target})
        expect(Date.now() - t0).toBeLessThan(15_000) // an answer, not a hang
        expect(stopped.status, JSON.stringify(stopped.body)).toBe(507)
        expect(stopped.body.code).toBe('INSUFFICIENT_STORAGE')
        expect(stopped.body.reason).toMatch(/^The advance stopped at .* the disk holding the sandbox database is full/)
        // Some decisions may still fit (SQLite reuses free pages); the rest wait, and the clock stands at the last that ran.
        const {jobsRun, pendingJobs, reached} = stopped.body.details
        expect(stopped.body.details.target).toBe(target)
        expect(jobsRun).toBeLessThan(CUSTOMERS)
        expect(pendingJobs).toBe(CUSTOMERS - jobsRun)
        const clock = (await api.call('GET', '/sandbox/clock')).body.now
        expect(clock).toBe(jobsRun ? reached : before.now)
        expect(Date.parse(clock)).toBeGreaterThanOrEqual(await latestEventAt(api.call))
        expect(Date.parse(clock)).toBeLessThan(Date.parse(target)) // never a 200-like jump over jobs left behind
        rmSync(filler)
        const again = await api.call('POST', '/sandbox/clock/advance', {to: target})
        expect(again.status, JSON.stringify(again.body)).toBe(200)
        expect(again.body.jobs.filter((j: {kind: string}) => j.kind === 'kyc.decide')).toHaveLength(CUSTOMERS - jobsRun)
        for (const id of ids) expect((await api.call('GET', `/customers/${id}`)).body.kycStatus).toBe('APPROVED')
      } finally {
        await api.close()
        s.child.kill('SIGKILL')
        await new Promise((r) => s.child.once('exit', r))
        execFileSync('umount', ['-l', mnt])
        rmSync(mnt, {recursive: true, force: true})
      }
    },
    120_000,
  )

  it('an outside lock: 503 SANDBOX_BUSY within the lock wait plus a bound; the same advance completes once it is released', async () => {
    const dataDir = join(home, 'lock')
    const s = await serve(home, dataDir, ['--decision-delay', '60000'])
    const api = client(s.ready)
    try {
      const {ids, target} = await setUp(api.call)
      const lock = holdWriteLock(join(dataDir, 'sandbox.db'))
      const t0 = Date.now()
      let stopped: Awaited<ReturnType<Api>>
      try {
        stopped = await api.call('POST', '/sandbox/clock/advance', {to: target})
      } finally {
        lock.release()
      }
      expect(Date.now() - t0).toBeLessThan(5_000 + 5_000) // the store's 5 s lock wait, plus a bound
      expect(stopped.status, JSON.stringify(stopped.body)).toBe(503)
      expect(stopped.body.code).toBe('SANDBOX_BUSY')
      expect(stopped.body.details).toMatchObject({target, jobsRun: 0})
      const again = await api.call('POST', '/sandbox/clock/advance', {to: target})
      expect(again.status, JSON.stringify(again.body)).toBe(200)
      for (const id of ids) expect((await api.call('GET', `/customers/${id}`)).body.kycStatus).toBe('APPROVED')
    } finally {
      await api.close()
      s.child.kill('SIGKILL')
    }
  }, 120_000)
})
