import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {imbalance} from '../../src/emulator/domain/ledger.js'
import {Emulator} from '../../src/emulator/emulator.js'
import {Db} from '../../src/emulator/store/db.js'
import {httpPayer, payOwnClabe} from '../helpers/money.js'
import {client, kill9, serve, started, type Api} from '../helpers/process-sandbox.js'

const home = mkdtempSync(join(tmpdir(), 'svc-crash-'))
const dataDir = join(home, 'sandbox')
afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
})

const run = () => serve(home, dataDir, ['--decision-delay', '150'])

/** What the burst asked for and what the sandbox acknowledged. */
interface Ledger {
  createsAcked: Set<string>
  createsSent: Set<string>
  executesAcked: Map<string, string>
  kycSubmitted: Set<string>
}

/** One writer: a mix of multi-write requests, looping until the process dies. */
async function burst(
  api: Api,
  round: number,
  w: number,
  payer: {usd: string; clabe: string},
  book: Ledger,
  dead: () => boolean,
): Promise<void> {
  for (let i = 0; !dead(); i++) {
    const kind = (w + i) % 4
    try {
      if (kind === 0) {
        // customer + two internal accounts in one request
        const pcid = `r${round}-w${w}-${i}`
        book.createsSent.add(pcid)
        const r = await api('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: pcid,
          fullName: `Crash ${pcid}`,
          currencies: ['USD', 'MXN'],
        })
        if (r.status === 201) book.createsAcked.add(pcid)
      } else if (kind === 1) {
        // balance, transaction, ledger totals and a webhook in one request
        await api('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, {amount: 1_000})
      } else if (kind === 2) {
        // hold, transaction, quote status, daily volume, then a completion job
        const paid = await payOwnClabe(api, payer)
        if (paid) book.executesAcked.set(paid.quoteId, paid.transactionId)
      } else {
        // a customer put under review: status, event and a decision job together
        const c = await api('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: `kyc-r${round}-w${w}-${i}`,
          fullName: 'Kyc Crash',
          currencies: ['USD'],
        })
        if (c.status !== 201) continue
        const link = await api('POST', `/customers/${c.body.id}/kyc-link`, {})
        if (link.status !== 201) continue
        const done = await api('POST', `/sandbox/hosted/kyc/${link.body.token}`)
        if (done.status === 200) book.kycSubmitted.add(c.body.id)
      }
    } catch {
      // in flight when the process died: nothing was promised
    }
  }
}

/** Opens the killed sandbox's database directly and checks every promise the acknowledgements made. */
function verifyAfterKill(book: Ledger, payerId: string): void {
  const db = Db.open(dataDir) // refuses a damaged file (quick_check)
  try {
    const byPcid = (pcid: string) =>
      db.docs<{id: string}>(db.sql.rows('SELECT doc FROM customers WHERE platform_customer_id = ?', pcid))[0]
    const accountsOf = (id: string) =>
      Number(db.sql.row('SELECT count(*) FROM internalAccounts WHERE customer_id = ?', id)![0])
    // created the same way: USD and MXN accounts plus the embedded wallet provisioned at create
    const full = accountsOf(payerId)
    expect(full).toBe(3)
    for (const pcid of book.createsSent) {
      const c = byPcid(pcid)
      if (book.createsAcked.has(pcid)) expect(c, `acknowledged create ${pcid}`).toBeDefined()
      // acknowledged or not: the customer and all its accounts, or nothing
      if (c) expect(accountsOf(c.id), `accounts of ${pcid}`).toBe(full)
    }
    expect(
      Number(
        db.sql.row(
          'SELECT count(*) FROM internalAccounts WHERE customer_id IS NOT NULL AND customer_id NOT IN (SELECT id FROM customers)',
        )![0],
      ),
    ).toBe(0)
    for (const [quoteId, txId] of book.executesAcked) {
      const q = db.get<{status: string; transactionId?: string}>('quotes', quoteId)
      expect(q?.status, quoteId).not.toBe('PENDING')
      expect(db.get('transactions', txId), txId).toBeDefined()
    }
    // no executed quote without its transaction, no transaction without its quote
    for (const [doc] of db.sql.rows(
      "SELECT doc FROM quotes WHERE json_extract(doc, '$.status') NOT IN ('PENDING', 'EXPIRED')",
    )) {
      const q = JSON.parse(doc as string) as {id: string; transactionId: string; status: string}
      expect(db.get('transactions', q.transactionId), `transaction of ${q.id} (${q.status})`).toBeDefined()
    }
    // a review and its decision job, or a decision and no job: never one without the other
    const jobs = new Set(
      db.sql
        .rows("SELECT json_extract(doc, '$.payload.customerId') FROM jobs WHERE kind = 'kyc.decide'")
        .map((r) => r[0]),
    )
    for (const id of book.kycSubmitted) {
      const c = db.get<{kycStatus: string}>('customers', id)!
      if (c.kycStatus === 'PENDING') expect(jobs.has(id), `decision job of ${id}`).toBe(true)
      else expect(jobs.has(id), `finished job of ${id}`).toBe(false)
    }
    // money: balances + held + in transit + paid out = funded, per currency
    const off = imbalance({db} as unknown as Emulator)
    expect(Object.entries(off).filter(([, v]) => v !== 0)).toEqual([])
  } finally {
    void db.close()
  }
}

describe('durability: kill -9 at random moments during bursts of multi-write requests', () => {
  it('after each of 20 kills, every acknowledged request is wholly there, nothing is half-written, and money is conserved', async () => {
    // The payer is set up by a sandbox in this process, on the settings `run()` gives a new data dir.
    const first = await Emulator.start({dataDir, port: 0, settings: {decisionDelayMs: 150}})
    const api0 = client({url: first.url, ...first.credentials})
    const payer = await httpPayer(api0.call, 'Payer', 100_000_000)
    await api0.close()
    await first.close()

    const book: Ledger = {
      createsAcked: new Set(),
      createsSent: new Set(),
      executesAcked: new Map(),
      kycSubmitted: new Set(),
    }
    let acknowledged = 0
    for (let round = 0; round < 20; round++) {
      const {child, ready} = await run()
      const {call, close} = client(ready)
      let dead = false
      const before = book.createsAcked.size + book.executesAcked.size + book.kycSubmitted.size
      const writers = Array.from({length: 8}, (_, w) => burst(call, round, w, payer, book, () => dead))
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 350)))
      dead = true
      await kill9(child)
      await Promise.all(writers)
      await close()
      expect(child.signalCode).toBe('SIGKILL')
      acknowledged += book.createsAcked.size + book.executesAcked.size + book.kycSubmitted.size - before
      verifyAfterKill(book, payer.id)
    }
    // the bursts really wrote: acknowledged multi-write requests of every kind
    expect(acknowledged).toBeGreaterThan(100)
    expect(book.executesAcked.size).toBeGreaterThan(10)
    expect(book.kycSubmitted.size).toBeGreaterThan(5)

    // and the sandbox serves on afterwards: acknowledged creates are readable over HTTP
    const last = await run()
    const api = client(last.ready)
    try {
      const list = await api.call('GET', '/customers?limit=5')
      expect(list.status).toBe(200)
      expect(list.body.totalCount).toBeGreaterThanOrEqual(book.createsAcked.size)
    } finally {
      await api.close()
      last.child.kill('SIGTERM')
      await new Promise((r) => last.child.once('exit', r))
    }
  }, 180_000)
})

describe('start-up check: the full integrity check only after an unclean shutdown', () => {
  const UNCLEAN = /unclean shutdown: ran the full integrity check \(quick_check\) on .*sandbox\.db: ok in \d+ ms/

  /** Starts, creates one customer (a write), stops as asked; returns what it logged. */
  async function session(dir: string, stop: 'SIGTERM' | 'SIGKILL'): Promise<string> {
    const s = await serve(home, dir)
    const api = client(s.ready)
    const r = await api.call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `chk-${Date.now()}-${Math.random()}`,
      fullName: 'Check Me',
      currencies: ['USD'],
    })
    expect(r.status).toBe(201)
    await api.close()
    if (stop === 'SIGKILL') await kill9(s.child)
    else {
      const exited = new Promise((res) => s.child.once('exit', res))
      s.child.kill('SIGTERM')
      await exited
    }
    return s.stderr()
  }

  it('a kill -9 leaves the open marker and the next start runs quick_check; a clean stop removes it and the next start does not', async () => {
    const dir = join(home, 'check')
    expect(await session(dir, 'SIGTERM')).not.toMatch(UNCLEAN) // a new database
    expect(existsSync(join(dir, 'sandbox.db.open'))).toBe(false)
    expect(await session(dir, 'SIGTERM')).not.toMatch(UNCLEAN) // after a clean stop
    expect(await session(dir, 'SIGKILL')).not.toMatch(UNCLEAN)
    expect(existsSync(join(dir, 'sandbox.db.open'))).toBe(true)
    expect(await session(dir, 'SIGTERM')).toMatch(UNCLEAN) // after the kill -9
    expect(await session(dir, 'SIGTERM')).not.toMatch(UNCLEAN) // and clean again
  }, 60_000)
})
