import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {overwriteAt} from '../helpers/files.js'
import {client, kill9, serve, started, TERMS} from '../helpers/process-sandbox.js'

const home = mkdtempSync(join(tmpdir(), 'svc-store-'))
afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
})
let n = 0
const freshDir = () => join(home, `data-${n++}`)
const env = {HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', CI: '1'}

/** A webhook receiver that hangs (never answers) until `heal()`, then answers 200 and records bodies. */
async function receiver() {
  let healthy = false
  const got: Array<{id: string; type: string}> = []
  const hung: ServerResponse[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c))
    req.on('end', () => {
      if (!healthy) return void hung.push(res)
      got.push(JSON.parse(body))
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {url, got, heal: () => (healthy = true), close: () => (hung.forEach((r) => r.destroy()), server.close())}
}

describe('the webhook outbox', () => {
  it('delivers all 8 events acknowledged while the receiver hung, in order, after a kill -9 and restart', async () => {
    const dir = freshDir()
    const hook = await receiver()
    try {
      const first = await serve(home, dir)
      const api = client(first.ready)
      await api.call('PATCH', '/config', {isRegulatedFinancialInstitution: true, webhookEndpoint: hook.url})
      const c = await api.call('POST', '/customers', {
        customerType: 'INDIVIDUAL',
        fullName: 'Hook',
        currencies: ['USD'],
        kycStatus: 'APPROVED',
        endUserTermsConsent: TERMS,
      })
      const account = (await api.call('GET', `/internal-account?customerId=${c.body.id}&currency=USD`)).body.data[0].id
      for (let i = 1; i <= 8; i++)
        expect((await api.call('POST', `/sandbox/internal-accounts/${account}/fund`, {amount: i * 100})).status).toBe(
          200,
        )
      const emitted = (await api.call('GET', '/sandbox/events?type=INCOMING_PAYMENT')).body.data as Array<{
        id: string
        delivery: {state: string}
      }>
      expect(emitted).toHaveLength(8)
      expect(emitted.every((e) => e.delivery.state === 'pending')).toBe(true)
      expect(hook.got).toHaveLength(0)
      await api.close()
      await kill9(first.child)

      hook.heal()
      const second = await serve(home, dir)
      const deadline = Date.now() + 20_000
      while (hook.got.filter((e) => e.type.startsWith('INCOMING_PAYMENT')).length < 8 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50))
      const delivered = hook.got.filter((e) => e.type.startsWith('INCOMING_PAYMENT'))
      expect(delivered.map((e) => e.id)).toEqual(emitted.map((e) => e.id))
      expect(hook.got[0].type).toBe('TEST') // the first event, held back by nothing, is still first
      const api2 = client(second.ready)
      const after = (await api2.call('GET', '/sandbox/events?type=INCOMING_PAYMENT')).body.data as Array<{
        delivery: {state: string; attempts: unknown[]}
      }>
      expect(after.every((e) => e.delivery.state === 'delivered' && e.delivery.attempts.length >= 1)).toBe(true)
      await api2.close()
      await kill9(second.child)
    } finally {
      hook.close()
    }
  }, 60_000)

  it('marks an event dead after its last attempt, shows its attempts, and lets the next ones through', async () => {
    const dir = freshDir()
    const failing = new Set<string>()
    const got: string[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c))
      req.on('end', () => {
        const e = JSON.parse(body) as {id: string; type: string}
        // the first funding event always fails; every other event succeeds
        if (e.type === 'INCOMING_PAYMENT.COMPLETED' && (failing.size === 0 || failing.has(e.id))) {
          failing.add(e.id)
          return void res.writeHead(500).end()
        }
        got.push(e.type)
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    try {
      // retries every 1 ms: 12 attempts take no time
      const s = await serve(home, dir, ['--webhook-retry-base', '1'])
      const api = client(s.ready)
      await api.call('PATCH', '/config', {isRegulatedFinancialInstitution: true})
      const c = await api.call('POST', '/customers', {
        customerType: 'INDIVIDUAL',
        fullName: 'Dead',
        currencies: ['USD'],
        kycStatus: 'APPROVED',
        endUserTermsConsent: TERMS,
      })
      const account = (await api.call('GET', `/internal-account?customerId=${c.body.id}&currency=USD`)).body.data[0].id
      await api.call('PATCH', '/config', {webhookEndpoint: url})
      await api.call('POST', `/sandbox/internal-accounts/${account}/fund`, {amount: 100})
      const deadline = Date.now() + 20_000
      let events: Array<{id: string; type: string; delivery: {state: string; attempts: Array<{status: number}>}}> = []
      while (Date.now() < deadline) {
        events = (await api.call('GET', '/sandbox/events?type=INCOMING_PAYMENT')).body.data
        if (events[0]?.delivery.state === 'dead') break
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(events[0].delivery.state).toBe('dead')
      expect(events[0].delivery.attempts.map((a) => a.status)).toEqual(Array(12).fill(500))
      await api.call('POST', `/sandbox/internal-accounts/${account}/fund`, {amount: 200})
      const until = Date.now() + 10_000
      while (Date.now() < until && got.length < 2) await new Promise((r) => setTimeout(r, 50))
      expect(got).toEqual(['TEST', 'INCOMING_PAYMENT.COMPLETED']) // the dead one no longer holds anything back
      await api.close()
      await kill9(s.child)
    } finally {
      server.close()
    }
  }, 60_000)
})

describe('integrity', () => {
  it('after an unclean shutdown, refuses to start on a damaged database page and names the file and the way back (exit 1)', async () => {
    const dir = freshDir()
    const s = await serve(home, dir)
    const api = client(s.ready)
    // Many pages' worth, sent side by side (the pool's 12 connections): only their size matters.
    await Promise.all(
      Array.from({length: 200}, (_, i) =>
        api.call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: `Page filler ${i} ${'x'.repeat(200)}`}),
      ),
    )
    await api.close()
    s.child.kill('SIGTERM')
    await new Promise((r) => s.child.once('exit', r))
    const file = join(dir, 'sandbox.db')
    expect(existsSync(file + '-wal') ? statSync(file + '-wal').size : 0).toBe(0) // checkpointed at a clean stop
    // overwrite a page in the middle of the file with garbage
    const size = statSync(file).size
    overwriteAt(file, Buffer.alloc(4096, 0xa5), Math.floor(size / 4096 / 2) * 4096)
    // A torn page is what a crash leaves, and a crash leaves the open marker: the full check runs
    // (after a clean stop, a start checks the header only; `svc doctor` runs integrity_check).
    expect(existsSync(join(dir, 'sandbox.db.open'))).toBe(false)
    writeFileSync(join(dir, 'sandbox.db.open'), '1\n')
    const r = await svc(['sandbox', 'serve', '--port', '0', '--data-dir', dir, '--json'], {env})
    expect(r.code).toBe(1)
    const error = r.json().error
    expect(error.code).toBe('SANDBOX_DATA_DAMAGED')
    expect(error.reason).toContain(file)
    expect(error.hint).toMatch(/svc sandbox restore/)
    expect(error.details.file).toBe(file)
  }, 60_000)

  it('names a damaged credentials.json or webhook-key.pem instead of calling it a bug', async () => {
    for (const [name, content] of [
      ['credentials.json', '{"tokenId": '],
      ['webhook-key.pem', 'not a key'],
    ] as const) {
      const dir = freshDir()
      mkdirSync(dir, {recursive: true, mode: 0o700})
      writeFileSync(join(dir, name), content, {mode: 0o600})
      const r = await svc(['sandbox', 'serve', '--port', '0', '--data-dir', dir], {env})
      expect(r.code, name).toBe(1)
      expect(r.stderr).toContain(join(dir, name))
      expect(r.stderr).not.toMatch(/bug in svc/)
    }
  })

  it('imports a journal-era data dir once, with every record, and keeps the journal beside the database', async () => {
    const dir = freshDir()
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const now = '2026-01-02T03:04:05.000Z'
    const customers = Array.from({length: 50}, (_, i) => ({
      id: `Customer:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      platformCustomerId: `journal-${i}`,
      customerType: 'INDIVIDUAL',
      umaAddress: `$j${i}@sandbox.uma.local`,
      fullName: `Journal ${i}`,
      kycStatus: 'UNVERIFIED',
      isDeleted: false,
      createdAt: now,
      updatedAt: now,
    }))
    const lines = [
      ...customers.map((c) => JSON.stringify({c: 'customers', k: c.id, v: c})),
      JSON.stringify({c: 'customers', k: customers[49].id}), // a delete
      JSON.stringify({c: 'customers', k: customers[0].id, v: {...customers[0], fullName: 'Journal renamed'}}), // a later upsert
      '{"c":"customers","k":"Customer:torn","v":{"id":"Cus', // a torn last line
    ]
    writeFileSync(join(dir, 'journal.ndjson'), lines.join('\n'), {mode: 0o600})
    const s = await serve(home, dir)
    const api = client(s.ready)
    const list = await api.call('GET', '/customers?limit=100')
    expect(list.body.totalCount).toBe(49)
    expect((await api.call('GET', `/customers/${customers[0].id}`)).body.fullName).toBe('Journal renamed')
    expect((await api.call('GET', `/customers/${customers[49].id}`)).status).toBe(404)
    expect((await api.call('GET', `/customers?platformCustomerId=journal-7`)).body.data[0].id).toBe(customers[7].id)
    await api.close()
    await kill9(s.child)
    expect(existsSync(join(dir, 'journal.ndjson'))).toBe(false)
    expect(readFileSync(join(dir, 'journal.ndjson.imported'), 'utf8')).toBe(lines.join('\n'))
    expect(s.stderr()).toMatch(/imported 49 record\(s\).*1 torn line/) // live records: 50 creates, one deleted
  }, 30_000)
})

describe('svc sandbox backup / restore', () => {
  it('copies a serving sandbox consistently, and restores it after checking it; a damaged copy replaces nothing', async () => {
    const dir = freshDir()
    const s = await serve(home, dir)
    const api = client(s.ready)
    const kept = await api.call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Before backup'})
    const file = join(home, 'backup.db')
    const b = await svc(['sandbox', 'backup', file, '--data-dir', dir, '--json'], {env})
    expect(b.code).toBe(0)
    expect(b.json()).toMatchObject({file, dataDir: dir})
    const later = await api.call('POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'After backup'})
    // restore refuses while the sandbox runs (its pid file is there)
    const running = await svc(['sandbox', 'restore', file, '--data-dir', dir, '--yes', '--json'], {env})
    expect(running.code).toBe(6)
    await api.close()
    s.child.kill('SIGTERM')
    await new Promise((r) => s.child.once('exit', r))

    const damaged = join(home, 'damaged.db')
    writeFileSync(damaged, readFileSync(file).subarray(0, 1000))
    const refused = await svc(['sandbox', 'restore', damaged, '--data-dir', dir, '--yes', '--json'], {env})
    expect(refused.code).toBe(1)
    expect(refused.json().error.reason).toContain(damaged)
    expect(existsSync(join(dir, 'sandbox.db.before-restore'))).toBe(false)

    const r = await svc(['sandbox', 'restore', file, '--data-dir', dir, '--yes', '--json'], {env})
    expect(r.code).toBe(0)
    expect(r.json().previous).toBe(join(dir, 'sandbox.db.before-restore'))
    const again = await serve(home, dir)
    const api2 = client(again.ready)
    expect((await api2.call('GET', `/customers/${kept.body.id}`)).status).toBe(200)
    expect((await api2.call('GET', `/customers/${later.body.id}`)).status).toBe(404)
    await api2.close()
    await kill9(again.child)
  }, 60_000)
})

describe('svc sandbox snapshot save / load', () => {
  it("hands a serving sandbox's state to another data dir; a file that is not a snapshot is refused and replaces nothing", async () => {
    const from = freshDir()
    const s = await serve(home, from)
    const api = client(s.ready)
    const c = await api.call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Handed over',
      platformCustomerId: 'ticket-4711',
    })
    const file = join(home, 'ticket-4711.db')
    const saved = await svc(['sandbox', 'snapshot', 'save', file, '--data-dir', from, '--json'], {env})
    expect(saved.code, saved.stderr).toBe(0)
    await api.close()
    await kill9(s.child)

    const to = freshDir()
    const notSnapshot = join(home, 'notes.txt')
    writeFileSync(notSnapshot, 'not a database')
    const refused = await svc(['sandbox', 'snapshot', 'load', notSnapshot, '--data-dir', to, '--yes', '--json'], {env})
    expect(refused.code).toBe(1)
    expect(existsSync(join(to, 'sandbox.db'))).toBe(false)

    const loaded = await svc(['sandbox', 'snapshot', 'load', file, '--data-dir', to, '--yes', '--json'], {env})
    expect(loaded.code, loaded.stderr).toBe(0)
    const b = await serve(home, to)
    const api2 = client(b.ready)
    expect((await api2.call('GET', `/customers/${c.body.id}`)).body).toMatchObject({
      fullName: 'Handed over',
      platformCustomerId: 'ticket-4711',
    })
    expect(b.ready.tokenId).not.toBe(s.ready.tokenId) // the receiver keeps its own credentials
    await api2.close()
    await kill9(b.child)
  }, 60_000)
})
