import {createServer} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api, until} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {startReceiver, type TestReceiver} from '../helpers/webhook-receiver.js'

// Retention on the sandbox clock (issue 31 item 4), at its defaults: idempotency answers 24 h, settled
// webhook events 30 days after their last attempt; pending events and live objects never.

let sbx: TestSandbox
let receiver: TestReceiver
beforeAll(async () => {
  sbx = await startSandbox()
  receiver = await startReceiver()
})
afterAll(async () => {
  await sbx.stop()
  await receiver.close()
})

/** A loopback URL nothing listens on: every delivery to it is refused at once. */
async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}/hooks`
}

const endpoint = (url: string) => api(sbx, 'PATCH', '/config', {webhookEndpoint: url})

/** A customer whose KYC decision (skipVerificationPaperwork) has landed: its events are about it. */
async function customer(name: string): Promise<string> {
  const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: name})
  expect(c.status).toBe(201)
  await advance('1s')
  expect(eventsOf(c.body.id)[c.body.id]!.length).toBeGreaterThan(0)
  return c.body.id as string
}

/** Where each customer's events stand, by customer id: their delivery states (the event log, as stored). */
function eventsOf(...ids: string[]): Record<string, string[]> {
  const rows = sbx.emu.db.sql.rows('SELECT object, delivery FROM events ORDER BY seq') as Array<[string, string]>
  return Object.fromEntries(ids.map((id) => [id, rows.filter(([o]) => o === id).map(([, d]) => d)]))
}

async function advance(by: string) {
  const r = await sbx.run(['sandbox', 'clock', 'advance', by, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return r.json() as {jobs: Array<{kind: string; outcome: string}>}
}

/** `svc kyc link` with an Idempotency-Key: the link's URL (each fresh link has a token of its own). */
async function kycLink(customerId: string, key: string): Promise<string> {
  const r = await sbx.run(['kyc', 'link', customerId, '--idempotency-key', key, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return r.json().kycUrl as string
}

/** The Idempotency-Keys whose answers are stored (ids are `<principal>|<scope>|<key>`). */
const idempotencyKeys = () =>
  sbx.emu.db.sql
    .rows('SELECT id FROM idempotency')
    .map((r) => String(r[0]).split('|').at(-1))
    .sort()

describe('retention on the sandbox clock', () => {
  it('prunes exactly the expired idempotency answers and settled events; pending events and live objects stay; a pruned key is new again', async () => {
    expect((await sbx.run(['sandbox', 'clock', 'freeze'])).code).toBe(0)
    await api(sbx, 'PATCH', '/config', {sandbox: {skipVerificationPaperwork: true}})

    // Day 0: an answer to replay (K1); A's events delivered; E's dead (out of attempts).
    const holder = await customer('Key Holder')
    const first = await kycLink(holder, 'K1')
    expect(await kycLink(holder, 'K1')).toBe(first) // a replay, within retention
    await endpoint(receiver.url)
    const a = await customer('Ada Delivered')
    await until(
      () => eventsOf(a)[a]!,
      (d) => d.length > 0 && d.every((s) => s === 'delivered'),
    )
    await endpoint(await deadUrl())
    const e = await customer('Eve Dead')
    await advance('1h') // E's retries run out (50 ms base in tests)
    expect(eventsOf(e)[e]!.every((s) => s === 'dead')).toBe(true)

    // 2 h later: a second answer (K2), 22 h younger than K1.
    await endpoint(receiver.url)
    await advance('1h')
    const second = await kycLink(holder, 'K2')

    // Past 24 h since K1, not since K2.
    const customersBefore = sbx.emu.db.count('customers')
    const adv = await advance('22h1m')
    expect(adv.jobs.some((j) => j.kind === 'retention.prune' && j.outcome === 'ran')).toBe(true)
    expect(idempotencyKeys()).toEqual(['K2'])
    expect(await kycLink(holder, 'K2')).toBe(second) // K2 still replays
    const linksBefore = sbx.emu.db.count('kycLinks')
    const fresh = await kycLink(holder, 'K1') // K1 was pruned: a new request, a new link
    expect(fresh).not.toBe(first)
    expect(sbx.emu.db.count('kycLinks')).toBe(linksBefore + 1)
    expect(idempotencyKeys()).toEqual(['K1', 'K2'])

    // Day 10: D's events delivered (young when A's expire).
    await advance('9d')
    const d = await customer('Dan Young')
    await until(
      () => eventsOf(d)[d]!,
      (s) => s.length > 0 && s.every((x) => x === 'delivered'),
    )
    // Past 30 days since A's and E's last attempts (day 0), not since D's (day 10).
    await advance('20d1h')
    const atDay30 = eventsOf(a, e, d)
    expect(atDay30[a]).toEqual([])
    expect(atDay30[e]).toEqual([])
    expect(atDay30[d]!.length).toBeGreaterThan(0)
    expect(atDay30[d]!.every((s) => s === 'delivered')).toBe(true)

    // Day 30: B's events wait for an endpoint (pending, held); C's have none to go to (never addressed).
    await endpoint(await deadUrl())
    const b = await customer('Bea Pending')
    await endpoint('')
    const c = await customer('Cy Unaddressed')
    expect(eventsOf(b)[b]!.every((s) => s === 'pending')).toBe(true)
    expect(eventsOf(c)[c]!.every((s) => s === 'none')).toBe(true)
    await advance('30d')
    // Day 60, minus a day: F's events, the newest.
    const f = await customer('Fay Newest')
    await advance('1d1h')
    const atDay61 = eventsOf(a, b, c, d, e, f)
    expect(atDay61[b]!.length).toBeGreaterThan(0) // pending, 31 days old: kept
    expect(atDay61[b]!.every((s) => s === 'pending')).toBe(true)
    expect(atDay61[c]).toEqual([]) // never addressed, 31 days old: pruned
    expect(atDay61[d]).toEqual([]) // delivered on day 10: pruned
    expect(atDay61[f]!.length).toBeGreaterThan(0) // a day old: kept

    // What the user sees: the event log lists only what is kept.
    const listed = await sbx.run(['webhooks', 'events', 'list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const objects = new Set(
      (listed.json().data as Array<{data?: {id?: string}}>).map((ev) => ev.data?.id).filter(Boolean),
    )
    expect(objects.has(a) || objects.has(c) || objects.has(d) || objects.has(e)).toBe(false)
    expect(objects.has(b) && objects.has(f)).toBe(true)

    // Live objects are never pruned: every customer, and every link issued.
    expect(sbx.emu.db.count('customers')).toBe(customersBefore + 4)
    for (const id of [holder, a, b, c, d, e, f])
      expect((await api(sbx, 'GET', `/customers/${encodeURIComponent(id)}`)).status).toBe(200)
    expect(sbx.emu.db.count('kycLinks')).toBe(linksBefore + 1)
  })

  it("the retention job is housekeeping: not in the clock's pending jobs, never in the way of a reset", async () => {
    const own = await startSandbox()
    try {
      expect(own.emu.scheduler.pending('retention.prune')).toHaveLength(1)
      const clock = await own.run(['sandbox', 'clock', '--json'])
      expect(clock.json()).toMatchObject({pendingJobs: 0, nextJobAt: null})
      await own.run(['sandbox', 'clock', 'freeze'])
      await own.run(['sandbox', 'clock', 'advance', '2d'])
      const reset = await own.run(['sandbox', 'clock', 'reset', '--json'])
      expect(reset.code, reset.stderr).toBe(0)
    } finally {
      await own.stop()
    }
  })

  it('a long advance prunes when other work happens and at its end, not on each day: five idle years are a few prunes', async () => {
    const own = await startSandbox()
    try {
      const c = await api(own, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Five Years'})
      expect(c.status).toBe(201)
      const made = await own.run(['kyc', 'link', c.body.id, '--idempotency-key', 'k-five-years', '--json'])
      expect(made.code, made.stderr).toBe(0)
      const keys = () => own.emu.db.sql.rows('SELECT id FROM idempotency').map((r) => String(r[0]))
      expect(keys().some((k) => k.endsWith('|k-five-years'))).toBe(true)
      const r = await own.run(['sandbox', 'clock', 'advance', '1825d', '--json'])
      expect(r.code, r.stderr).toBe(0)
      const prunes = (r.json().jobs as Array<{kind: string}>).filter((j) => j.kind === 'retention.prune')
      // Once a day would be 1,825: it runs beside the customer's own jobs and once at the end.
      expect(prunes.length).toBeGreaterThan(0)
      expect(prunes.length).toBeLessThan(10)
      // and it pruned what expired on the way, as the daily runs would have
      expect(keys().some((k) => k.endsWith('|k-five-years'))).toBe(false)
      expect(own.emu.scheduler.pending('retention.prune')).toHaveLength(1)
    } finally {
      await own.stop()
    }
  })
})
