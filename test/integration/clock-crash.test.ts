// Issue 31: the clock never goes back after a crash or a stop during `clock advance`. Each job's
// unit records the clock at that job's time, so what a job committed is never ahead of the clock,
// and a repeated advance finishes the jobs left. Real processes, real kill -9 and SIGTERM.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
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
      // A receiver taking 150 ms per event: each decision's webhook holds its step, so the advance takes seconds.
      const receiver = await startReceiver(() => ({status: 200, delayMs: 150}))
      let s = await serve(home, dataDir, ['--decision-delay', '60000'])
      let api = client(s.ready)
      try {
        expect((await api.call('POST', '/sandbox/clock/freeze')).status).toBe(200)
        expect((await api.call('PATCH', '/config', {webhookEndpoint: receiver.url})).status).toBe(200)
        const ids = await pendingDecisions(api.call)
        const target = new Date(Date.parse((await api.call('GET', '/sandbox/clock')).body.now) + 120_000).toISOString()
        expect(receiver.got.filter((g) => g.type === 'CUSTOMER.KYC_APPROVED')).toHaveLength(0)
        const advance = api.call('POST', '/sandbox/clock/advance', {to: target}).catch(() => undefined)
        // Killed once some decisions committed and others have not.
        await eventually(() => receiver.got.filter((g) => g.type === 'CUSTOMER.KYC_APPROVED').length >= 5, 30_000)
        const exited = new Promise((r) => s.child.once('exit', r))
        s.child.kill(signal)
        await exited
        await advance
        await api.close()

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
