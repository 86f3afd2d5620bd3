import {execFileSync, spawn} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {request} from 'undici'
import {afterAll, describe, expect, it} from 'vitest'
import {fillDisk, holdWriteLock} from '../helpers/faults.js'
import {BIN, kill9, serve, started, TERMS, type Ready} from '../helpers/process-sandbox.js'
import {svcInProcess} from '../helpers/run-command.js'
import {startSandbox} from '../helpers/sandbox.js'

const home = mkdtempSync(join(tmpdir(), 'svc-faults-home-'))
const dirs: string[] = [home]
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-faults-'))
  dirs.push(d)
  return join(d, 'data')
}

afterAll(async () => {
  for (const c of started) await kill9(c)
  for (const d of dirs) rmSync(d, {recursive: true, force: true})
})

/** One HTTP call to a sandbox process: status, headers and parsed body, never a throw on 4xx/5xx. */
async function call(ready: Ready, method: string, path: string, body?: unknown) {
  const base = new URL(ready.url)
  const res = await request(base.origin + base.pathname + path, {
    method: method as 'GET',
    headers: {
      authorization: 'Basic ' + Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64'),
      ...(body === undefined ? {} : {'content-type': 'application/json'}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.body.text()
  return {status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined}
}

const newCustomer = (name: string) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: name.replaceAll(' ', '-'),
  fullName: name,
  endUserTermsConsent: TERMS,
})

describe('locks held by another process', () => {
  it('a 1 s lock is waited out; a lock held past the 5 s wait answers 503 SANDBOX_BUSY with Retry-After; the server lives and loses nothing acknowledged', async () => {
    const dataDir = newDir()
    const {child, ready} = await serve(home, dataDir)
    const acked: string[] = []
    const first = await call(ready, 'POST', '/customers', newCustomer('Lock Before'))
    expect(first.status).toBe(201)
    acked.push(first.body.id)

    let lock = holdWriteLock(join(dataDir, 'sandbox.db'))
    setTimeout(() => lock.release(), 1_000)
    const t0 = Date.now()
    const waited = await call(ready, 'POST', '/customers', newCustomer('Lock Short'))
    expect(waited.status).toBe(201)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
    acked.push(waited.body.id)

    // Held past the 5 s wait (released below, once refused requests are seen), as a 10 s lock would be.
    lock = holdWriteLock(join(dataDir, 'sandbox.db'))
    const t1 = Date.now()
    const [write, read] = await Promise.all([
      call(ready, 'POST', '/customers', newCustomer('Lock Long')),
      call(ready, 'GET', `/customers/${acked[0]}`),
    ])
    const took = Date.now() - t1
    expect(write.status).toBe(503)
    expect(write.body.code).toBe('SANDBOX_BUSY')
    expect(write.headers['retry-after']).toBe('1')
    expect(read.status).toBe(503)
    expect(took).toBeGreaterThanOrEqual(4_500)
    expect(took).toBeLessThan(9_000)
    // While the lock stays held, later requests are refused at once instead of each waiting 5 s again.
    const t2 = Date.now()
    expect((await call(ready, 'POST', '/customers', newCustomer('Lock Again'))).status).toBe(503)
    expect(Date.now() - t2).toBeLessThan(1_000)
    lock.release()

    const after = await call(ready, 'POST', '/customers', newCustomer('Lock After'))
    expect(after.status).toBe(201)
    acked.push(after.body.id)
    expect(child.exitCode).toBeNull()
    for (const id of acked) expect((await call(ready, 'GET', `/customers/${id}`)).status).toBe(200)
    const list = await call(ready, 'GET', '/customers?limit=100')
    expect(list.body.data.map((c: {fullName: string}) => c.fullName).sort()).toEqual([
      'Lock After',
      'Lock Before',
      'Lock Short',
    ])
  }, 40_000)

  it('two servers started together on one data dir: one serves, the other exits 6 (conflict) naming it', async () => {
    const dataDir = newDir()
    const start = () => {
      const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', dataDir], {
        env: {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1'},
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      started.push(child)
      let out = ''
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
      return new Promise<{child: typeof child; ready?: Ready; code?: number | null; out: string}>((resolve) => {
        child.stdout!.on('data', () => {
          if (out.startsWith('{"url"') && out.includes('\n'))
            resolve({child, ready: JSON.parse(out.slice(0, out.indexOf('\n'))), out})
        })
        child.once('exit', (code) => resolve({child, code, out}))
      })
    }
    const both = await Promise.all([start(), start()])
    const serving = both.filter((r) => r.ready)
    const refused = both.filter((r) => !r.ready)
    expect(serving).toHaveLength(1)
    expect(refused).toHaveLength(1)
    expect(refused[0].code).toBe(6)
    const error = JSON.parse(refused[0].out).error
    expect(error.code).toBe('SANDBOX_RUNNING')
    expect(error.reason).toContain(`pid ${serving[0].child.pid}`)
    expect(error.hint).toMatch(/--data-dir/)
    expect((await call(serving[0].ready!, 'POST', '/customers', newCustomer('Only One'))).status).toBe(201)
  }, 30_000)
})

const isRoot = process.getuid?.() === 0
describe.skipIf(!isRoot)(
  'a full disk (a small tmpfs; mounting needs root, so this is skipped unless root — CI runs as root)',
  () => {
    it('writes are refused with 507, reads keep working, a due job is kept and runs once space returns; nothing acknowledged is lost', async () => {
      const mnt = mkdtempSync(join(tmpdir(), 'svc-full-'))
      dirs.push(mnt)
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mnt])
      try {
        const dataDir = join(mnt, 'data')
        const {child, ready} = await serve(home, dataDir, ['--decision-delay', '1500'])
        expect((await call(ready, 'PATCH', '/config', {sandbox: {skipVerificationPaperwork: true}})).status).toBe(200)
        const pending = await call(ready, 'POST', '/customers', newCustomer('Full Disk Ada'))
        const decisionDue = Date.now() + 1_500
        expect(pending.status).toBe(201)
        const acked = [pending.body.id as string]

        // Fill the disk to the last byte.
        const filler = fillDisk(mnt)

        let refused: Awaited<ReturnType<typeof call>> | undefined
        for (let i = 0; i < 400 && !refused; i++) {
          const r = await call(ready, 'POST', '/customers', newCustomer(`Full Disk ${i}`))
          if (r.status === 201) acked.push(r.body.id)
          else refused = r
        }
        expect(refused?.status).toBe(507)
        expect(refused?.body.code).toBe('INSUFFICIENT_STORAGE')
        expect(refused?.body.reason).toMatch(/disk .* is full/)
        const read = await call(ready, 'GET', `/customers/${acked[0]}`)
        expect(read.status).toBe(200)
        // The KYC decision falls due while the disk is full: it cannot be written, so it must wait, not vanish.
        await new Promise((r) => setTimeout(r, Math.max(decisionDue + 1_000 - Date.now(), 0)))
        expect((await call(ready, 'GET', `/customers/${acked[0]}`)).body.kycStatus).toBe('PENDING')

        rmSync(filler)
        let status = ''
        for (let i = 0; i < 400 && status !== 'APPROVED'; i++) {
          await new Promise((r) => setTimeout(r, 50))
          status = (await call(ready, 'GET', `/customers/${acked[0]}`)).body.kycStatus
        }
        expect(status).toBe('APPROVED')
        expect((await call(ready, 'POST', '/customers', newCustomer('Space Again'))).status).toBe(201)
        for (const id of acked) expect((await call(ready, 'GET', `/customers/${id}`)).status, id).toBe(200)
        expect(child.exitCode).toBeNull()
        await kill9(child)
      } finally {
        execFileSync('umount', ['-l', mnt])
      }
    }, 60_000)
  },
)

describe('outbound webhooks against hostile receivers', () => {
  async function receiver(
    handler: (res: import('node:http').ServerResponse) => void,
  ): Promise<{server: Server; url: string}> {
    const server = createServer((req, res) => {
      req.resume()
      req.on('end', () => handler(res))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return {server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`}
  }

  const peakRssKb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

  it('a receiver trickling its answer is cut at the 5 s deadline of the whole attempt; one answering 400 MiB costs a few KiB', async () => {
    const {child, ready} = await serve(home, newDir(), ['--webhook-retry-base', '60000'])
    const timers: NodeJS.Timeout[] = []
    const slow = await receiver((res) => {
      res.writeHead(200, {'content-type': 'text/plain'})
      const t = setInterval(() => res.write('x'), 2_000)
      timers.push(t)
      res.on('close', () => clearInterval(t))
    })
    const t0 = Date.now()
    expect((await call(ready, 'PATCH', '/config', {webhookEndpoint: slow.url})).status).toBe(200)
    let attempts: Array<{error?: string; status?: number}> = []
    for (let i = 0; i < 300 && !attempts.length; i++) {
      await new Promise((r) => setTimeout(r, 50))
      attempts = (await call(ready, 'GET', '/sandbox/events?type=TEST')).body.data[0].delivery.attempts
    }
    expect(attempts[0].error).toBe('timed out after 5s')
    expect(Date.now() - t0).toBeLessThan(8_000)
    for (const t of timers) clearInterval(t)
    slow.server.closeAllConnections()
    slow.server.close()

    const before = peakRssKb(child.pid!)
    const huge = await receiver((res) => {
      res.writeHead(200, {'content-type': 'application/octet-stream', 'content-length': String(400 * 1024 * 1024)})
      const mb = Buffer.alloc(1024 * 1024, 0x61)
      let sent = 0
      const pump = () => {
        while (sent < 400 && !res.destroyed) {
          sent++
          if (!res.write(mb)) return void res.once('drain', pump)
        }
        res.end()
      }
      pump()
    })
    expect((await call(ready, 'PATCH', '/config', {webhookEndpoint: huge.url})).status).toBe(200)
    let delivered: {state: string; attempts: Array<{status?: number}>} | undefined
    for (let i = 0; i < 200 && delivered?.state !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      const events = (await call(ready, 'GET', '/sandbox/events?type=TEST&order=desc&limit=1')).body.data
      delivered = events[0].delivery
    }
    expect(delivered?.state).toBe('delivered')
    expect(delivered?.attempts[0].status).toBe(200)
    const grewMb = (peakRssKb(child.pid!) - before) / 1024
    expect(grewMb).toBeLessThan(20)
    huge.server.closeAllConnections()
    huge.server.close()
  }, 40_000)
})

describe('the event log of a long-lived sandbox', () => {
  it('100k events come a page at a time by cursor, in order, and the CLI reads the tail without walking them', async () => {
    const dataDir = newDir()
    mkdirSync(dataDir, {recursive: true, mode: 0o700})
    // Fill the log through the store itself: 100k events written over HTTP would take minutes.
    const {Db} = await import('../../src/emulator/store/db.js')
    const db = Db.open(dataDir)
    await db.unit(() => {
      for (let seq = 1; seq <= 100_000; seq++) {
        const id = `Webhook:00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`
        db.put('events', id, {
          seq,
          event: {
            id,
            type: seq % 2 ? 'CUSTOMER.KYC_APPROVED' : 'INCOMING_PAYMENT.COMPLETED',
            timestamp: new Date(1_700_000_000_000 + seq).toISOString(),
            data: {n: seq},
          },
          delivery: 'none',
          attempts: [],
        })
      }
    })
    await db.close()
    // The events are dated 2023: kept past the default 30-day retention, which would prune them as the test pages.
    const {ready} = await serve(home, dataDir, ['--event-retention', '36500d'])
    let cursor: string | undefined
    let seen = 0
    let last = 0
    let pages = 0
    let slowest = 0
    do {
      const t = performance.now()
      const page = await call(ready, 'GET', `/sandbox/events?limit=1000${cursor ? `&cursor=${cursor}` : ''}`)
      slowest = Math.max(slowest, performance.now() - t)
      expect(page.status).toBe(200)
      for (const e of page.body.data as Array<{data: {n: number}}>) {
        expect(e.data.n).toBe(last + 1)
        last = e.data.n
      }
      seen += page.body.data.length
      pages++
      cursor = page.body.hasMore ? page.body.nextCursor : undefined
    } while (cursor)
    expect(seen).toBe(100_000)
    expect(pages).toBe(100)
    expect(slowest).toBeLessThan(2_000)
    const typed = await call(ready, 'GET', '/sandbox/events?type=INCOMING_PAYMENT&limit=3')
    expect(typed.body.data.map((e: {data: {n: number}}) => e.data.n)).toEqual([2, 4, 6])
    const bad = await call(ready, 'GET', '/sandbox/events?limit=5000&cursor=nope')
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: {field: string}) => e.field)).toEqual(['limit', 'cursor'])

    const env = {
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_BASE_URL: ready.url,
      SVC_TOKEN_ID: ready.tokenId,
      SVC_CLIENT_SECRET: ready.clientSecret,
      NO_COLOR: '1',
    }
    const tail = await svcInProcess(['webhooks', 'events', 'list', '--last', '3', '--json'], {env})
    expect(tail.code).toBe(0)
    expect(tail.json().data.map((e: {data: {n: number}}) => e.data.n)).toEqual([99_998, 99_999, 100_000])
  }, 90_000)
})

describe('damage and misuse are refused at start or before anything is written, naming the file', () => {
  // The commands run in this process: what they refuse is decided before any server listens.
  const cli = (args: string[]) =>
    svcInProcess(args, {env: {HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1'}})
  /** A sandbox in this process on a data dir (a fresh one by default), with the `ready` that `call` takes. */
  async function served(dataDir = newDir()) {
    const sbx = await startSandbox({}, dataDir)
    const ready = {url: sbx.url, tokenId: sbx.emu.credentials.tokenId, clientSecret: sbx.emu.credentials.clientSecret}
    return {dataDir, ready, stop: () => sbx.stop()}
  }
  /** A data dir that served once and stopped cleanly. */
  async function servedOnce(): Promise<{dataDir: string}> {
    const s = await served()
    expect((await call(s.ready, 'POST', '/customers', newCustomer('Kept Kim'))).status).toBe(201)
    await s.stop()
    return {dataDir: s.dataDir}
  }
  const serveFails = async (dataDir: string) => {
    const r = await cli(['sandbox', 'serve', '--port', '0', '--data-dir', dataDir, '--json'])
    return {code: r.code, error: JSON.parse(r.stdout).error as {code: string; reason: string; hint: string}}
  }

  it('a 0-byte or missing sandbox.db beside credentials, a newer schema, a key that is not P-256', async () => {
    const {dataDir} = await servedOnce()
    const db = join(dataDir, 'sandbox.db')
    writeFileSync(db, '')
    let r = await serveFails(dataDir)
    expect(r.code).toBe(1)
    expect(r.error.code).toBe('SANDBOX_DATA_DAMAGED')
    expect(r.error.reason).toContain(`${db} is empty (0 bytes)`)
    expect(r.error.hint).toContain('svc sandbox restore')
    rmSync(db)
    r = await serveFails(dataDir)
    expect(r.error.reason).toContain(`${db} is missing`)
    // `svc sandbox reset` is the way to start afresh on purpose: it leaves a fresh database that serves.
    expect((await cli(['sandbox', 'reset', '--yes', '--data-dir', dataDir, '--json'])).code).toBe(0)
    const fresh = await served(dataDir)
    expect((await call(fresh.ready, 'GET', '/customers')).body.data).toEqual([])
    await fresh.stop()

    const newer = (await servedOnce()).dataDir
    const Database = createRequire(import.meta.url)('libsql') as new (path: string) => {
      exec(sql: string): void
      close(): void
    }
    const conn = new Database(join(newer, 'sandbox.db'))
    conn.exec('PRAGMA user_version = 999')
    conn.close()
    r = await serveFails(newer)
    expect(r.code).toBe(1)
    expect(r.error.code).toBe('SANDBOX_DATA_TOO_NEW')
    expect(r.error.reason).toContain(join(newer, 'sandbox.db'))
    expect(r.error.reason).toMatch(/schema version 999: it was written by a newer svc/)

    const keyed = (await servedOnce()).dataDir
    const {generateKeyPairSync} = await import('node:crypto')
    writeFileSync(
      join(keyed, 'webhook-key.pem'),
      generateKeyPairSync('ed25519').privateKey.export({type: 'pkcs8', format: 'pem'}) as string,
    )
    r = await serveFails(keyed)
    expect(r.code).toBe(1)
    expect(r.error.reason).toContain(`${join(keyed, 'webhook-key.pem')} holds a ed25519 key, not the ECDSA P-256 key`)
  }, 60_000)

  it('backups: never onto the live database or inside the data dir, never over a file without --force, always 0600', async () => {
    const {dataDir} = await servedOnce()
    const live = join(dataDir, 'sandbox.db')
    const liveBefore = readFileSync(live)
    let r = await cli(['sandbox', 'backup', live, '--data-dir', dataDir, '--json'])
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout).error).toMatchObject({code: 'BACKUP_TARGET_INVALID'})
    r = await cli(['sandbox', 'backup', join(dataDir, 'copy.db'), '--data-dir', dataDir, '--json'])
    expect(JSON.parse(r.stdout).error.reason).toContain("inside the sandbox's data dir")
    expect(readFileSync(live).equals(liveBefore)).toBe(true)

    const out = join(dirname(dataDir), 'backup.db')
    r = await cli(['sandbox', 'backup', out, '--data-dir', dataDir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const first = readFileSync(out)
    r = await cli(['sandbox', 'backup', out, '--data-dir', dataDir, '--json'])
    expect(r.code).toBe(6)
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'BACKUP_TARGET_EXISTS',
      hint: expect.stringContaining('--force'),
    })
    expect(readFileSync(out).equals(first)).toBe(true)
    r = await cli(['sandbox', 'backup', out, '--data-dir', dataDir, '--force', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(statSync(out).mode & 0o777).toBe(0o600)
  }, 40_000)

  it('issue 29 F11: in a pre-existing 0755 data dir under umask 022 the database, its WAL and the key files are 0600, and serve warns naming the fix', async () => {
    const dataDir = newDir()
    mkdirSync(dataDir, {mode: 0o755})
    chmodSync(dataDir, 0o755)
    const umask = process.umask(0o022) // the child inherits it
    let served
    try {
      served = await serve(home, dataDir)
    } finally {
      process.umask(umask)
    }
    const {child, ready, stderr} = served
    expect((await call(ready, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada'})).status).toBe(201)
    const files = ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm', 'credentials.json', 'webhook-key.pem']
    expect(Object.fromEntries(files.map((f) => [f, (statSync(join(dataDir, f)).mode & 0o777).toString(8)]))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    )
    expect(stderr()).toContain(`the data dir ${dataDir} is open to its group and other users (mode 755)`)
    expect(stderr()).toContain(`chmod 700 ${dataDir}`)
    expect(statSync(dataDir).mode & 0o777).toBe(0o755) // warned about, not changed
    await kill9(child)
  }, 30_000)

  it('a shared directory (mode 1777) is not chmod-ed: it is refused with a hint, and a subdirectory of it works', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'svc-shared-'))
    dirs.push(shared)
    chmodSync(shared, 0o1777)
    const r = await serveFails(shared)
    expect(r.code).toBe(1)
    expect(r.error.code).toBe('UNSAFE_DIRECTORY')
    expect(r.error.reason).toContain('is writable by every user (mode 1777)')
    expect(r.error.hint).toContain(join(shared, 'svc'))
    expect(statSync(shared).mode & 0o7777).toBe(0o1777)
    const {child, ready} = await serve(home, join(shared, 'svc'))
    expect((await call(ready, 'GET', '/customers')).status).toBe(200)
    expect(statSync(join(shared, 'svc')).mode & 0o777).toBe(0o700)
    await kill9(child)
  }, 30_000)

  it('extreme rates and amounts are refused naming the field, and nothing moves', async () => {
    const {ready, stop} = await served()
    let r = await call(ready, 'PATCH', '/config', {sandbox: {exchangeRates: {MXN: '1000000000000'}}})
    expect(r.status).toBe(400)
    expect(r.body.details.errors).toEqual([
      {field: 'sandbox.exchangeRates.MXN', message: 'must be at most 1000000000 units per USD'},
    ])
    r = await call(ready, 'PATCH', '/config', {sandbox: {exchangeRates: {MXN: '1000000000'}}})
    expect(r.status).toBe(200)
    const rate = await call(
      ready,
      'GET',
      '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=100000000000',
    )
    expect(rate.status).toBe(400)
    expect(rate.body.details.errors[0]).toMatchObject({
      field: 'amount',
      message: expect.stringContaining('past the largest exact amount'),
    })
    await stop()
  }, 30_000)
})

describe('hostile clients get a bounded cost', () => {
  const peakRssKb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
  const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

  /** A legit client's GET latencies (a new connection each, as a script would make) over `ms`. */
  async function legitLatencies(ready: Ready, ms: number): Promise<{p99: number; answered: number; sent: number}> {
    const times: number[] = []
    let sent = 0
    const until = Date.now() + ms
    while (Date.now() < until) {
      sent++
      const t = performance.now()
      try {
        const r = await call(ready, 'GET', '/customers?limit=1')
        if (r.status === 200) times.push(performance.now() - t)
      } catch {
        // refused or reset: counted as not answered
      }
      await new Promise((r) => setTimeout(r, 20))
    }
    times.sort((a, b) => a - b)
    return {p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], answered: times.length, sent}
  }

  it('300 slowloris connections and 1,000 idle keep-alive connections: a legit client is still answered, p99 <= 100 ms', async () => {
    const {Socket} = await import('node:net')
    const {ready} = await serve(home, newDir())
    const origin = new URL(ready.url)
    const open = (n: number, onConnect: (s: InstanceType<typeof Socket>) => void) =>
      Promise.all(
        Array.from(
          {length: n},
          () =>
            new Promise<InstanceType<typeof Socket>>((resolve) => {
              const s = new Socket()
              s.on('error', () => undefined)
              s.connect(Number(origin.port), '127.0.0.1', () => (onConnect(s), resolve(s)))
            }),
        ),
      )
    // Slowloris: headers that never end, a byte a second.
    const slow = await open(300, (s) => s.write(`GET ${origin.pathname}/customers HTTP/1.1\r\nHost: x\r\nX-a: `))
    const drip = setInterval(() => slow.forEach((s) => s.writable && s.write('a')), 1_000)
    // Two drips' worth of requests: p99 of ~80 samples is their slowest, so the bound holds for every one.
    const duringSlow = await legitLatencies(ready, 2_000)
    clearInterval(drip)
    slow.forEach((s) => s.destroy())
    expect(duringSlow.answered).toBe(duringSlow.sent)
    expect(duringSlow.p99).toBeLessThanOrEqual(100)

    // Idle keep-alive: one answered request each, then silence.
    const auth = 'Basic ' + Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64')
    const idle = await open(1_000, (s) =>
      s.write(
        `GET ${origin.pathname}/customers?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nConnection: keep-alive\r\n\r\n`,
      ),
    )
    await new Promise((r) => setTimeout(r, 500))
    const duringIdle = await legitLatencies(ready, 1_500)
    idle.forEach((s) => s.destroy())
    expect(duringIdle.answered).toBe(duringIdle.sent)
    expect(duringIdle.p99).toBeLessThanOrEqual(100)
  }, 60_000)

  it('40 unauthenticated 12 MiB bodies on public routes are cut at 64 KiB: RSS grows by at most 20 MB', async () => {
    const {ready, child} = await serve(home, newDir())
    const origin = new URL(ready.url)
    const {Socket} = await import('node:net')
    const before = peakRssKb(child.pid!)
    const mib = Buffer.alloc(1024 * 1024, 0x7b)
    const one = (i: number) =>
      new Promise<string>((resolve) => {
        const s = new Socket()
        let answer = ''
        s.on('data', (c) => (answer += c.toString()))
        s.on('error', () => resolve(answer))
        s.on('close', () => resolve(answer))
        s.connect(Number(origin.port), '127.0.0.1', async () => {
          // Half declare their length, half stream chunked: neither may be buffered past the cap.
          const head = i % 2 ? `Content-Length: ${12 * 1024 * 1024}\r\n` : 'Transfer-Encoding: chunked\r\n'
          s.write(
            `POST ${origin.pathname}/sandbox/hosted/kyc/tok${i} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${head}\r\n`,
          )
          for (let k = 0; k < 12 && !s.destroyed; k++) {
            const ok =
              i % 2 ? s.write(mib) : s.write(`${mib.length.toString(16)}\r\n`) && s.write(mib) && s.write('\r\n')
            if (!ok) await new Promise((r) => s.once('drain', r).once('close', r))
          }
          s.end()
        })
      })
    const answers = await Promise.all(Array.from({length: 40}, (_, i) => one(i)))
    // Each is refused with 413 as soon as it passes the cap; a client still writing may see the close as a reset instead.
    for (const a of answers) expect(a === '' || a.startsWith('HTTP/1.1 413')).toBe(true)
    const refused = answers.filter((a) => a.startsWith('HTTP/1.1 413'))
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]).toContain('"limitBytes":65536')
    const grewMb = (peakRssKb(child.pid!) - before) / 1024
    expect(grewMb).toBeLessThanOrEqual(20)
    expect(rssKb(child.pid!)).toBeGreaterThan(0)
    expect((await call(ready, 'GET', '/customers')).status).toBe(200)
  }, 60_000)
})
