// Issue 31: no delivery held behind a dead endpoint or a slow receiver. Order is kept per object
// (an event's data.id), pending events follow the endpoint when it changes, and a listener's
// registration ends with the listener even when the sandbox stopped first.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {join} from 'node:path'
import {svcLive} from '../helpers/cli.js'
import {holdWriteLock} from '../helpers/faults.js'
import {api} from '../helpers/money.js'
import {fakeTime} from '../helpers/fake-time.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {eventually} from '../helpers/wait.js'
import {deadUrl, startReceiver} from '../helpers/webhook-receiver.js'

interface Row {
  seq: number
  event: {id: string; type: string}
  delivery: string
  endpoint?: string
  attempts: Array<{url: string; status?: number}>
}

let sbx: TestSandbox
beforeAll(async () => {
  // Retries an hour apart: anything delivered within seconds was not waiting out a backoff.
  sbx = await startSandbox({webhookRetryBaseMs: 3_600_000})
})
afterAll(async () => sbx.stop())

const setEndpoint = (url: string | null) => sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: url})
const rows = (): Row[] => sbx.emu.db.all<Row>('events')
const row = (id: string) => sbx.emu.db.get<Row>('events', id)!

/**
 * Emits `n` events about each object, all in one unit (so they commit, and become deliverable,
 * together). wallet_operation.completed: an event the contract checks only by its envelope, so a
 * made-up object is a valid body; its object is its operationId.
 */
const emitFor = (objects: string[], n: number) => emitForOn(sbx, objects, n)

async function emitForOn(s: TestSandbox, objects: string[], n: number): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>(objects.map((o) => [o, []]))
  await s.emu.db.unit(() => {
    for (let round = 0; round < n; round++)
      for (const o of objects)
        ids.get(o)!.push(s.emu.webhooks.emit('wallet_operation.completed', {operationId: o, status: 'completed'}).id)
  })
  return ids
}

describe('webhook delivery that cannot jam', () => {
  it('a failing event holds back only the later events of its own object', async () => {
    const r = await startReceiver((d) => ({status: d.object === 'Customer:stuck' ? 500 : 200}))
    try {
      setEndpoint(r.url)
      const ids = await emitFor(['Customer:stuck', 'Customer:fine'], 3)
      await eventually(() => ids.get('Customer:fine')!.every((id) => row(id).delivery === 'delivered'), 5_000)
      // The other object's events arrived in their order; the stuck object's first event was tried once
      // (its retry is an hour away) and its later events wait behind it, never sent.
      expect(r.got.filter((g) => g.object === 'Customer:fine').map((g) => g.id)).toEqual(ids.get('Customer:fine'))
      const [first, ...later] = ids.get('Customer:stuck')!
      expect(row(first).attempts.map((a) => a.status)).toEqual([500])
      expect(row(first).delivery).toBe('pending')
      for (const id of later) expect(row(id).attempts).toEqual([])
      expect(r.got.filter((g) => g.object === 'Customer:stuck').map((g) => g.id)).toEqual([first])
    } finally {
      setEndpoint(null)
      await r.close()
    }
  })

  it('when the endpoint changes, pending events go to the new one at once; --clear leaves none addressed to the old URL', async () => {
    const dead = await deadUrl()
    setEndpoint(dead)
    const ids = [...(await emitFor(['Customer:a', 'Customer:b', 'Customer:c'], 2)).values()].flat()
    await eventually(() => ids.filter((id) => row(id).attempts.length > 0).length === 3)
    // Cleared: nothing stays addressed to the dead URL; the events are held (pending, no endpoint).
    const clear = await sbx.run(['webhooks', 'endpoint', '--clear', '--json'])
    expect(clear.code, clear.stderr).toBe(0)
    expect(rows().filter((e) => e.delivery === 'pending' && e.endpoint === dead)).toEqual([])
    for (const id of ids) expect(row(id)).toMatchObject({delivery: 'pending'})
    for (const id of ids) expect(row(id).endpoint).toBeUndefined()
    // A new endpoint: every held event arrives within seconds (not an hour's backoff later), in order per object.
    const r = await startReceiver()
    try {
      const t0 = Date.now()
      const set = await sbx.run(['webhooks', 'endpoint', r.url, '--json'])
      expect(set.code, set.stderr).toBe(0)
      await eventually(() => ids.every((id) => row(id).delivery === 'delivered'), 5_000)
      expect(Date.now() - t0).toBeLessThan(5_000)
      for (const o of ['Customer:a', 'Customer:b', 'Customer:c']) {
        const mine = r.got.filter((g) => g.object === o).map((g) => g.id)
        expect(mine).toEqual(ids.filter((id) => mine.includes(id)))
        expect(mine).toHaveLength(2)
      }
      for (const id of ids) expect(row(id).attempts.at(-1)).toMatchObject({url: r.url, status: 200})
    } finally {
      setEndpoint(null)
      await r.close()
    }
  })

  it('a 400 ms receiver with 500 pending events on 50 objects drains in about 10 round trips, not 500', async () => {
    const r = await startReceiver(() => ({status: 200, delayMs: 400}))
    try {
      const objects = Array.from({length: 50}, (_, i) => `Customer:drain-${i}`)
      setEndpoint(await deadUrl()) // pending for a dead endpoint first, as in the measurement
      const ids = await emitFor(objects, 10)
      const all = [...ids.values()].flat()
      const t0 = Date.now()
      await sbx.emu.db.unit(() => setEndpoint(r.url)) // as PATCH /config does: the pending events follow it
      await eventually(() => r.got.filter((g) => g.object?.startsWith('Customer:drain-')).length === 500, 60_000)
      const elapsed = Date.now() - t0
      console.log(
        `drain: 500 events on 50 objects to a 400 ms receiver in ${elapsed} ms (${(elapsed / 400).toFixed(1)} round trips)`,
      )
      expect(elapsed).toBeLessThan(18 * 400) // 10 round trips per object, in parallel across objects (measured 12.4)
      for (const o of objects) expect(r.got.filter((g) => g.object === o).map((g) => g.id)).toEqual(ids.get(o))
      await eventually(() => all.every((id) => row(id).delivery === 'delivered'))
    } finally {
      setEndpoint(null)
      await r.close()
    }
  }, 90_000)
})

describe('the outbox under an outside lock', () => {
  it('an attempt that could not be recorded (a lock) is made again by itself once the lock is gone, with no other request', async () => {
    // A sandbox that waits 500 ms for another process's lock (5 s by default): the same story, a tenth as long.
    const own = await startSandbox({webhookRetryBaseMs: 3_600_000}, undefined, {lockWaitMs: 500})
    const r = await startReceiver(() => ({status: 200, delayMs: 200}))
    const ownRow = (id: string) => own.emu.db.get<Row>('events', id)!
    try {
      await own.emu.db.unit(() => own.emu.saveConfig({...own.emu.config(), webhookEndpoint: r.url}))
      const [id] = (await emitForOn(own, ['Op:locked'], 1)).get('Op:locked')!
      // The receiver answers in 200 ms; meanwhile another process takes the write lock for 1.5 s (past the 500 ms wait).
      const lock = holdWriteLock(join(own.dir, 'sandbox.db'))
      await new Promise((done) => setTimeout(done, 1_500))
      lock.release()
      const requests = own.requestCount()
      await eventually(() => ownRow(id).delivery === 'delivered', 20_000)
      expect(own.requestCount()).toBe(requests) // no request woke it
      expect(r.got.filter((g) => g.id === id).length).toBeGreaterThanOrEqual(2) // sent again: at least once
      expect(ownRow(id).attempts.at(-1)).toMatchObject({url: r.url, status: 200})
    } finally {
      await own.stop()
      await r.close()
    }
  }, 60_000)
})

describe('the clock does not wait on a webhook backlog', () => {
  it("advance over one job with 60 events queued for a 400 ms receiver waits for that job's webhook only", async () => {
    const r = await startReceiver(() => ({status: 200, delayMs: 400}))
    try {
      await sbx.emu.db.unit(() => setEndpoint(r.url))
      expect((await api(sbx, 'POST', '/sandbox/clock/freeze')).status).toBe(200)
      await emitFor(['Op:backlog'], 60) // one object: 60 round trips, 24 s, to drain
      const c = await api(sbx, 'POST', '/customers', {
        customerType: 'INDIVIDUAL',
        platformCustomerId: 'clock-backlog',
        fullName: 'Clock Backlog',
        currencies: ['USD'],
      })
      const link = await api(sbx, 'POST', `/customers/${c.body.id}/kyc-link`, {})
      expect((await api(sbx, 'POST', `/sandbox/hosted/kyc/${link.body.token}`)).status).toBe(200)
      const t0 = Date.now()
      const adv = await sbx.run(['sandbox', 'clock', 'advance', '2s', '--json'])
      const elapsed = Date.now() - t0
      expect(adv.code, adv.stderr).toBe(0)
      expect(adv.json().jobs.map((j: {kind: string}) => j.kind)).toContain('kyc.decide')
      expect(adv.json().webhooks.waitedMs).toBeLessThan(3_000) // its own event's round trip, not the backlog's 24 s
      expect(elapsed).toBeLessThan(8_000)
      expect(r.got.filter((g) => g.object === 'Op:backlog').length).toBeLessThan(60) // the backlog was still draining
      expect(r.got.some((g) => g.type === 'CUSTOMER.KYC_APPROVED' && g.object === c.body.id)).toBe(true)
    } finally {
      await api(sbx, 'POST', '/sandbox/clock/reset', {force: true})
      await sbx.emu.db.unit(() => setEndpoint(null))
      await r.close()
    }
  }, 60_000)
})

describe('what a user sees of a held delivery', () => {
  it('events list filters by --object and --state and says why each is held; doctor warns of a dead endpoint with a backlog', async () => {
    const dead = await deadUrl()
    await sbx.emu.db.unit(() => setEndpoint(dead))
    const ids = (await emitFor(['Op:held'], 2)).get('Op:held')!
    await eventually(() => row(ids[0]).attempts.length === 1)
    const list = await sbx.run(['webhooks', 'events', 'list', '--object', 'Op:held', '--state', 'pending', '--json'])
    expect(list.code, list.stderr).toBe(0)
    const data = list.json().data as Array<{
      id: string
      delivery: {held: string; endpoint: string; nextAttemptAt: string}
    }>
    expect(data.map((e) => e.id)).toEqual(ids)
    expect(data[0].delivery.held).toMatch(/^held: endpoint unreachable \(.*ECONNREFUSED.*\), next attempt at \d{4}-/)
    expect(data[0].delivery.endpoint).toBe(dead)
    expect(data[1].delivery.held).toBe(
      `held: behind ${ids[0]} of the same object, whose next attempt is at ${data[0].delivery.nextAttemptAt}`,
    )
    const delivered = await sbx.run([
      'webhooks',
      'events',
      'list',
      '--object',
      'Op:held',
      '--state',
      'delivered',
      '--json',
    ])
    expect(delivered.json().data).toEqual([])
    const bad = await sbx.run(['webhooks', 'events', 'list', '--state', 'lost', '--json'])
    expect(bad.code).toBe(2)

    const doctor = await sbx.run(['doctor', '--json'], {env: {SVC_SANDBOX_DIR: sbx.dir}})
    const check = (doctor.json().checks as Array<{name: string; status: string; detail: string; hint: string}>).find(
      (c) => c.name === 'webhooks',
    )!
    expect(check.status).toBe('warn')
    expect(check.detail).toMatch(
      new RegExp(`^\\d+ event\\(s\\) pending for ${dead.replaceAll('.', '\\.')}, which is not accepting them`),
    )
    expect(check.hint).toContain('svc webhooks listen --register')
    await sbx.emu.db.unit(() => setEndpoint(null))
  }, 60_000)

  it('events list --follow prints each new event as it is recorded', async () => {
    // On a fake clock: the events are recorded while the follow sleeps after its first poll (started and
    // polling), and it follows on until its --timeout, which passes in milliseconds.
    const clock = fakeTime()
    let emitted: string[] = []
    const sleep = async (ms: number) => {
      if (!emitted.length)
        emitted = ['Op:follow', 'Op:other', 'Op:follow'].map(
          (operationId) => sbx.emu.webhooks.emit('wallet_operation.completed', {operationId, status: 'completed'}).id,
        )
      await clock.sleep(ms)
    }
    const r = await sbx.run(
      ['webhooks', 'events', 'list', '--object', 'Op:follow', '--follow', '--timeout', '10s', '--json'],
      {
        now: clock.now,
        sleep,
      },
    )
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id as string)
    expect(lines).toEqual([emitted[0], emitted[2]])
    expect(clock.slept()).toBe(10_000) // followed to the end of its --timeout
  })
})

describe("a listener's registration ends with the listener", () => {
  /** `webhooks listen --register --json` as its own process, resolved once it listens; its URL. */
  async function listener(env: Record<string, string>) {
    const live = svcLive(['webhooks', 'listen', '--port', '0', '--register', '--json'], env)
    await eventually(() => /Listening on (\S+)/.test(live.stderr()))
    const url = /Listening on (http\S+?)(,| \()/.exec(live.stderr())![1]
    const received = () =>
      live
        .stdout()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as {id: string; type: string})
    return {live, url, received}
  }

  it('the quick start: listener registered, sandbox stopped, listener stopped, sandbox restarted; a new listener gets every pending and new event', async () => {
    let s = await startSandbox({webhookRetryBaseMs: 3_600_000})
    try {
      const first = await listener(s.env)
      await eventually(() => first.received().some((e) => e.type === 'TEST'))
      // The listener stops answering (SIGSTOP): events pile up in flight, then the sandbox stops with them pending.
      first.live.child.kill('SIGSTOP')
      const ids = [...(await emitForOn(s, ['Op:1', 'Op:2', 'Op:3'], 2)).values()].flat()
      await s.stop()
      first.live.child.kill('SIGCONT')
      first.live.child.kill('SIGINT')
      expect(await first.live.exited).toBe(130)
      expect(first.live.stderr()).toContain(`The sandbox still sends events to ${first.url}, where nothing listens now`)
      // Restarted: the sandbox ends the dead listener's registration itself; the events are held for the next endpoint.
      s = await startSandbox({webhookRetryBaseMs: 3_600_000}, s.dir)
      await eventually(() => s.emu.config().webhookEndpoint === null, 5_000)
      const held = ids.map((id) => s.emu.db.get<Row>('events', id)!)
      expect(held.map((e) => e.delivery)).toEqual(ids.map(() => 'pending'))
      expect(held.filter((e) => e.endpoint === first.url)).toEqual([])
      // A new listener: every pending event within seconds, then new ones.
      const second = await listener(s.env)
      await eventually(() => ids.every((id) => second.received().some((e) => e.id === id)), 5_000)
      const fresh = s.emu.webhooks.emit('wallet_operation.completed', {operationId: 'Op:new', status: 'completed'})
      await eventually(() => second.received().some((e) => e.id === fresh.id), 5_000)
      second.live.child.kill('SIGINT')
      expect(await second.live.exited).toBe(130)
      // Ctrl-C put back what was there before the first listener (none), never the first listener's dead URL.
      expect(second.live.stderr()).toContain('The webhook endpoint is cleared again (none was set before)')
      expect(s.emu.config().webhookEndpoint).toBeNull()
    } finally {
      await s.stop()
    }
  }, 90_000)

  it('a listener killed outright: the next listener puts back the endpoint from before it, not its dead URL', async () => {
    const before = 'https://app.example.com/hooks/svc'
    setEndpoint(before)
    const first = await listener(sbx.env)
    first.live.child.kill('SIGKILL')
    await first.live.exited
    expect(sbx.emu.config().webhookEndpoint).toBe(first.url) // nothing was sent meanwhile: still registered
    const second = await listener(sbx.env)
    second.live.child.kill('SIGINT')
    expect(await second.live.exited).toBe(130)
    expect(second.live.stderr()).toContain(`The webhook endpoint is back to ${before}`)
    expect(sbx.emu.config().webhookEndpoint).toBe(before)
    setEndpoint(null)
  }, 60_000)
})
