import {createHash} from 'node:crypto'
import {existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {imbalance} from '../../src/emulator/domain/ledger.js'
import {backupDatabase} from '../../src/emulator/store/files.js'
import {SCHEMA_VERSION} from '../../src/emulator/store/migrations.js'
import {openConnection} from '../../src/emulator/store/sqlite.js'
import {httpPayer, payOwnClabe} from '../helpers/money.js'
import {eventually} from '../helpers/wait.js'
import {as, http, removeDir, startMulti, type Creds, type TestMulti} from '../helpers/multi-sandbox.js'

let t: TestMulti
const work = mkdtempSync(join(tmpdir(), 'svc-multi-files-'))
beforeAll(async () => {
  t = await startMulti()
})
afterAll(async () => {
  await t.close()
  removeDir(t.dir)
  removeDir(work)
})

const customer = (pcid: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: pcid,
  fullName: `Team ${pcid}`,
  currencies: ['USD', 'MXN'],
  ...extra,
})

/** An approved payer with a USD account funded as given, and a CLABE beneficiary: what money moves need. */
const payer = (c: Creds, funded: number) => httpPayer(as(c), 'Team payer', funded)

const balanceOf = async (c: Creds, p: {id: string; usd: string}) =>
  (await as(c)('GET', `/internal-account?customerId=${p.id}`)).body.data.find((a: {id: string}) => a.id === p.usd)
    ?.balance.amount as number | undefined

describe('isolation: credentials pick the sandbox, and nothing of one is visible to another', () => {
  it('two sandboxes with the same platformCustomerId and Idempotency-Key each see only their own customers, events and keys; resetting one leaves the other intact', async () => {
    const a = await t.create('iso-a')
    const b = await t.create('iso-b')
    expect(a.tokenId).not.toBe(b.tokenId)
    // Both on the server's plain URL: the credentials alone pick the sandbox.
    const apiA = as(a, t.main.url)
    const apiB = as(b, t.main.url)
    // Each its own settings: A's decisions skip the paperwork, so its customer gets a KYC event; B's do not.
    expect((await apiA('PATCH', '/config', {sandbox: {skipVerificationPaperwork: true}})).status).toBe(200)
    expect((await apiB('GET', '/config')).body.sandbox.skipVerificationPaperwork).toBe(false)
    const key = {'idempotency-key': 'same-key'}
    const ca = await apiA('POST', '/customers', customer('same-pcid'), key)
    const cb = await apiB('POST', '/customers', customer('same-pcid', {fullName: 'Other Body'}), key)
    expect([ca.status, cb.status]).toEqual([201, 201]) // neither a duplicate nor a replay of the other's answer
    expect(cb.body.fullName).toBe('Other Body')
    expect(ca.body.id).not.toBe(cb.body.id)
    const listA = await apiA('GET', '/customers?platformCustomerId=same-pcid')
    expect(listA.body.data.map((c: {id: string}) => c.id)).toEqual([ca.body.id])
    expect((await apiA('GET', '/customers')).body.totalCount).toBe(1)
    expect((await apiA('GET', `/customers/${cb.body.id}`)).status).toBe(404)
    expect((await apiB('GET', `/customers/${ca.body.id}`)).status).toBe(404)
    // The webhook event logs: A's decision event is in A's log only.
    const emuA = await t.multi.tenants.open(t.multi.tenants.get('iso-a')!)
    await eventually(() => emuA.webhooks.list().length > 0)
    const eventsA = (await apiA('GET', '/sandbox/events')).body.data
    expect(eventsA[0].type).toMatch(/^CUSTOMER\.KYC_/)
    expect([...new Set(eventsA.map((e: {data: {id: string}}) => e.data.id))]).toEqual([ca.body.id])
    expect((await apiB('GET', '/sandbox/events')).body.data).toEqual([])
    // Its own webhook key and settings.
    const keyA = await apiA('GET', '/sandbox/webhook-public-key')
    const keyB = await apiB('GET', '/sandbox/webhook-public-key')
    expect(JSON.stringify(keyA.body)).not.toBe(JSON.stringify(keyB.body))
    expect((await apiA('PATCH', '/config', {webhookEndpoint: 'https://a.example.com/hook'})).status).toBe(200)
    expect((await apiB('GET', '/config')).body.webhookEndpoint).not.toBe('https://a.example.com/hook')
    // Its own clock: A frozen and moved a day on, B still on real time.
    expect((await apiA('POST', '/sandbox/clock/freeze')).status).toBe(200)
    expect((await apiA('POST', '/sandbox/clock/advance', {by: '1d'})).status).toBe(200)
    const clockA = (await apiA('GET', '/sandbox/clock')).body
    const clockB = (await apiB('GET', '/sandbox/clock')).body
    expect(clockA.mode).toBe('frozen')
    expect(Date.parse(clockA.now) - Date.now()).toBeGreaterThan(23 * 3_600_000)
    expect(clockB).toMatchObject({mode: 'real', offsetMs: 0})
    // The default sandbox (the data dir's own) saw none of it.
    expect((await as(t.main)('GET', '/customers')).body.totalCount).toBe(0)

    const reset = await t.admin('POST', '/iso-a/reset')
    expect(reset).toEqual({status: 200, body: {name: 'iso-a', reset: true}})
    expect((await apiA('GET', '/customers')).body.totalCount).toBe(0) // same credentials, empty state
    expect((await apiB('GET', '/customers')).body.data.map((c: {id: string}) => c.id)).toEqual([cb.body.id])
  })
})

describe('reset under load', () => {
  it('requests arriving while one sandbox is reset wait for it: none fails, and what follows sees the wiped state', async () => {
    const r = await t.create('reset-busy')
    const api = as(r)
    for (let i = 0; i < 5; i++) expect((await api('POST', '/customers', customer(`rb-${i}`))).status).toBe(201)
    const reads = Array.from({length: 20}, () => api('GET', '/customers'))
    const reset = t.admin('POST', '/reset-busy/reset')
    const after = reset.then(() => api('GET', '/customers'))
    const answers = await Promise.all(reads)
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    for (const a of answers) expect([0, 5]).toContain(a.body.totalCount)
    expect((await reset).status).toBe(200)
    expect((await after).body.totalCount).toBe(0)
  })
})

describe('authorization', () => {
  it('the admin routes refuse sandbox credentials (403), none or wrong ones (401), and change nothing', async () => {
    const a = await t.create('authz-a')
    const before = (await t.admin('GET', '')).body.data.map((s: {name: string}) => s.name)
    for (const creds of [a, t.main]) {
      const r = await http(`${t.main.url}/sandbox/sandboxes`, creds, 'POST', {name: 'by-sandbox'})
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('FORBIDDEN')
      expect((await http(`${t.main.url}/sandbox/sandboxes/authz-a`, creds, 'DELETE')).status).toBe(403)
    }
    expect((await http(`${t.main.url}/sandbox/sandboxes`, undefined, 'GET')).status).toBe(401)
    const wrong = {tokenId: 'admin', clientSecret: 'sk_admin_wrong'}
    expect((await http(`${t.main.url}/sandbox/sandboxes`, wrong, 'POST', {name: 'by-guess'})).status).toBe(401)
    expect((await t.admin('GET', '')).body.data.map((s: {name: string}) => s.name)).toEqual(before)
    // The admin credential is no sandbox's credential either.
    expect(
      (await http(`${t.main.url}/customers`, {tokenId: 'admin', clientSecret: t.multi.admin.clientSecret}, 'GET'))
        .status,
    ).toBe(401)
  })

  it("a sandbox's credentials are refused by every other sandbox", async () => {
    const a = await t.create('authz-x')
    const b = await t.create('authz-y')
    expect((await as(a)('GET', '/customers')).status).toBe(200)
    for (const other of [b.url, t.main.url.replace('/2025-10-13', '/sandboxes/default/2025-10-13')]) {
      const r = await as(a, other)('GET', '/customers')
      expect(r.status).toBe(401)
      expect(r.body.code).toBe('UNAUTHORIZED')
    }
    expect((await as(t.main, b.url)('POST', '/customers', customer('intruder'))).status).toBe(401)
    expect((await as(b)('GET', '/customers')).body.totalCount).toBe(0)
  })

  it('no name or path leads outside the data dir: ../x and friends are refused, naming the field', async () => {
    const parent = join(t.dir, '..')
    const rootBefore = readdirSync(t.dir).sort()
    for (const name of ['../x', '..', '.hidden', 'a/b', 'x'.repeat(64), '', 'sp ace']) {
      const r = await t.admin('POST', '', {name})
      expect(r.status, name).toBe(400)
      expect(r.body.details.errors[0].field).toBe('name')
    }
    const branch = await t.admin('POST', '', {name: 'ok-name', from: {sandbox: '../../etc'}})
    expect(branch.status).toBe(400)
    expect(branch.body.details.errors[0].field).toBe('from.sandbox')
    const upload = await t.admin('POST', '?name=..%2Fx', new Uint8Array([1, 2, 3]), {
      'content-type': 'application/vnd.sqlite3',
    })
    expect(upload.status).toBe(400)
    // (%2E%2E is `..` to a URL parser: the path leaves the admin routes and no sandbox takes the admin credential.)
    for (const path of ['/..%2Fx', '/%2E%2E', '/..%2F..%2Fsandboxes/reset'])
      expect([400, 401, 404]).toContain((await t.admin('DELETE', path)).status)
    expect(
      (await http(`${t.main.url.replace('/2025-10-13', '')}/sandboxes/..%2Fx/2025-10-13/customers`, t.main, 'GET'))
        .status,
    ).toBe(404)
    for (const escaped of [join(parent, 'x'), join(t.dir, 'x'), join(parent, 'etc')])
      expect(existsSync(escaped)).toBe(false)
    expect(readdirSync(t.dir).sort()).toEqual(rootBefore)
    expect(readdirSync(join(t.dir, 'sandboxes')).filter((n) => !/^(iso|authz|ok|br|snap|reset)/.test(n))).toEqual([])
    expect((await t.admin('DELETE', '/default')).status).toBe(409) // the data dir itself stays
  })
})

describe('branching is a file copy', () => {
  it('a sandbox branched from a snapshot has its customers and balances; writes to the branch reach neither the source nor the snapshot', async () => {
    const src = await t.create('br-src')
    const p = await payer(src, 1_234_56)
    const snap = join(work, 'snap.db')
    backupDatabase(join(t.dir, 'sandboxes', 'br-src'), snap)
    const digest = () => createHash('sha256').update(readFileSync(snap)).digest('hex')
    const before = digest()
    const made = await t.admin('POST', '?name=br-snap', new Uint8Array(readFileSync(snap)), {
      'content-type': 'application/vnd.sqlite3',
    })
    expect(made.status).toBe(201)
    const br = made.body as Creds
    expect(br.tokenId).not.toBe(src.tokenId) // its own credentials, not the source's
    expect((await as(br)('GET', `/customers/${p.id}`)).body.fullName).toBe('Team payer')
    expect(await balanceOf(br, p)).toBe(1_234_56)

    expect((await as(br)('POST', `/sandbox/internal-accounts/${p.usd}/fund`, {amount: 100})).status).toBe(200)
    expect((await as(br)('POST', '/customers', customer('branch-only'))).status).toBe(201)
    expect(await balanceOf(br, p)).toBe(1_234_56 + 100)
    expect(await balanceOf(src, p)).toBe(1_234_56)
    expect((await as(src)('GET', '/customers?platformCustomerId=branch-only')).body.data).toEqual([])
    expect(digest()).toBe(before)

    // Branched from the serving sandbox directly: the same state, its own from then on.
    const br2 = await t.create('br-live', 'br-src')
    expect(await balanceOf(br2, p)).toBe(1_234_56)
    expect((await as(br2)('GET', '/customers?platformCustomerId=branch-only')).body.data).toEqual([])
  })

  it('an older snapshot is migrated forward; a damaged or newer one is refused (422) and nothing is created', async () => {
    const src = await t.create('snap-src')
    const c = await as(src)('POST', '/customers', customer('old-one'))
    const old = join(work, 'old.db')
    backupDatabase(join(t.dir, 'sandboxes', 'snap-src'), old)
    // As a version-1 file had it: no invitations table (since 2), an older user_version.
    const conn = openConnection(old, {check: 'none'})
    conn.exec('DROP TABLE invitations')
    conn.exec('PRAGMA user_version = 1')
    conn.exec('PRAGMA journal_mode = DELETE')
    conn.close()
    const up = await t.admin('POST', '?name=snap-old', new Uint8Array(readFileSync(old)), {
      'content-type': 'application/vnd.sqlite3',
    })
    expect(up.status).toBe(201)
    expect((await as(up.body)('GET', `/customers/${c.body.id}`)).body.platformCustomerId).toBe('old-one')
    expect((await as(up.body)('GET', '/invitations/Invitation:none')).status).toBe(404) // the table is back
    const db = openConnection(join(t.dir, 'sandboxes', 'snap-old', 'sandbox.db'), {readonly: true, check: 'none'})
    expect(Number((db.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])).toBe(SCHEMA_VERSION)
    db.close()

    const newer = join(work, 'newer.db')
    writeFileSync(newer, readFileSync(old))
    const n = openConnection(newer, {check: 'none'})
    n.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    n.close()
    for (const [name, bytes] of [
      ['snap-newer', readFileSync(newer)],
      ['snap-junk', Buffer.from('SQLite format 3\0 but not really a database file at all'.repeat(100))],
    ] as const) {
      const r = await t.admin('POST', `?name=${name}`, new Uint8Array(bytes), {
        'content-type': 'application/vnd.sqlite3',
      })
      expect(r.status, name).toBe(422)
      expect(r.body.code).toBe('INVALID_SNAPSHOT')
      expect(existsSync(join(t.dir, 'sandboxes', name))).toBe(false)
      expect((await t.admin('GET', `/${name}`)).status).toBe(404)
    }
    expect(readdirSync(join(t.dir, 'sandboxes')).filter((f) => f.startsWith('.'))).toEqual([])
  })

  it('a branch made while the source takes writes is consistent: the money invariant holds in every branch', async () => {
    const src = await t.create('br-busy')
    const p = await payer(src, 100_000_000)
    const api = as(src)
    let stop = false
    let acked = 0
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        if ((w + i) % 2 === 0) {
          if ((await api('POST', `/sandbox/internal-accounts/${p.usd}/fund`, {amount: 1_000})).status === 200) acked++
        } else {
          if (await payOwnClabe(api, p)) acked++
        }
      }
    }
    const writers = Array.from({length: 6}, (_, w) => writer(w))
    const branches: string[] = []
    for (let i = 0; i < 4; i++) {
      while (acked < (i + 1) * 15) await new Promise((r) => setImmediate(r))
      await t.create(`br-busy-${i}`, 'br-busy')
      branches.push(`br-busy-${i}`)
    }
    stop = true
    await Promise.all(writers)
    const moved: number[] = []
    for (const name of [...branches, 'br-busy']) {
      const emu = await t.multi.tenants.open(t.multi.tenants.get(name)!)
      expect(
        Object.entries(imbalance(emu)).filter(([, v]) => v !== 0),
        name,
      ).toEqual([])
      const usd = emu.db.get<{fundedIn: number; inTransit: number; paidOut: number}>('ledger', 'USD')!
      moved.push(usd.fundedIn + usd.inTransit + usd.paidOut)
    }
    // Each branch caught the source at a different moment, mid-writes, and the source went on.
    expect(new Set(moved.slice(0, -1)).size).toBe(branches.length)
    expect(moved).toEqual([...moved].sort((x, y) => x - y))
  })
})
