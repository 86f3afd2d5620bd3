import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {listCustomers} from '../../../src/emulator/store/customers.js'
import {DB_FILE} from '../../../src/emulator/store/db.js'
import {SCHEMA_VERSION} from '../../../src/emulator/store/migrations.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'
import {rangeCountOf} from '../../../src/emulator/store/keyset.js'
import {listTransactions} from '../../../src/emulator/store/transactions.js'
import {tempStore} from '../../helpers/store.js'

// Date-range totals from the created_at buckets (month/day/hour/minute) must equal a plain count
// for every window, across bucket edges, as rows are added, deleted, restored and removed.

const store = tempStore('svc-range-')

// Times clustered around edges: month ends, midnights, hour and minute turns, equal timestamps.
const BASE = Date.UTC(2025, 11, 31, 23, 58, 0)
const STEPS = [0, 1, 7, 59_000, 60_000, 61_000, 3_599_000, 3_600_000, 86_399_999, 86_400_000, 2_678_400_000]
const at = (i: number) =>
  new Date(BASE + STEPS[i % STEPS.length]! * Math.ceil(i / 3) - 3_600_000 * (i % 5)).toISOString()
const customer = (i: number, isDeleted = false) => ({
  id: `Customer:${i}`,
  customerType: i % 3 === 0 ? 'BUSINESS' : 'INDIVIDUAL',
  region: ['US', 'MX', 'GB'][i % 3],
  currencies: ['USD'],
  isDeleted,
  createdAt: at(i),
  updatedAt: at(i),
})
const plain = (where: string, ...params: unknown[]) =>
  Number(store.db.sql.row(`SELECT count(*) FROM customers WHERE ${where}`, ...params)![0])

function windows(): Array<[string | undefined, string | undefined]> {
  const points = [...new Set(Array.from({length: 60}, (_, i) => at(i)))]
  // Each stored time, a millisecond either side, and whole-unit bounds.
  const near = points.flatMap((p) => {
    const t = Date.parse(p)
    return [p, new Date(t - 1).toISOString(), new Date(t + 1).toISOString(), p.slice(0, 16) + ':00.000Z']
  })
  const out: Array<[string | undefined, string | undefined]> = []
  for (let i = 0; i < near.length; i += 3) {
    out.push([near[i], undefined], [undefined, near[i]])
    for (let j = 0; j < near.length; j += 7) out.push([near[i], near[j]])
  }
  return out
}

function expectExact(): number {
  let checked = 0
  for (const [from, to] of windows()) {
    const bounds = [from && 'created_at >= ?', to && 'created_at <= ?'].filter(Boolean).join(' AND ')
    const values = [from, to].filter(Boolean)
    const all = rangeCountOf(store.db, {name: 'customers', table: 'customers'}, from, to)
    const active = rangeCountOf(
      store.db,
      {name: 'customers.active', table: 'customers', scope: 'is_deleted = 0'},
      from,
      to,
    )
    expect([all, active], `${from} .. ${to}`).toEqual([
      plain(bounds, ...values),
      plain(`is_deleted = 0 AND ${bounds}`, ...values),
    ])
    checked++
  }
  return checked
}

describe('created_at range totals (timeCounts buckets)', () => {
  it('equal a plain count for every window, as rows come and go', () => {
    for (let i = 0; i < 60; i++) store.db.put('customers', `Customer:${i}`, customer(i))
    expect(expectExact()).toBeGreaterThan(1000)
    for (let i = 0; i < 60; i += 4) store.db.put('customers', `Customer:${i}`, customer(i, true)) // deleted
    for (let i = 0; i < 60; i += 12) store.db.put('customers', `Customer:${i}`, customer(i, false)) // restored
    for (let i = 1; i < 60; i += 9) store.db.del('customers', `Customer:${i}`)
    // an update that moves a row to another month
    store.db.put('customers', 'Customer:2', {...customer(2), createdAt: '2024-02-29T12:00:00.000Z'})
    expectExact()
  })

  it('answer the lists: customers createdAfter/Before and transactions startDate/endDate', () => {
    const mid = at(30)
    const q = {createdAfter: mid} as never
    expect(listCustomers(store.db, q, {limit: 5}).totalCount).toBe(plain('is_deleted = 0 AND created_at >= ?', mid))
    expect(
      listCustomers(store.db, {createdBefore: mid, isIncludingDeleted: 'true'} as never, {limit: 5}).totalCount,
    ).toBe(plain('created_at <= ?', mid))
    for (let i = 0; i < 40; i++)
      store.db.put('transactions', `Transaction:${i}`, {
        id: `Transaction:${i}`,
        status: 'PENDING',
        type: 'OUTGOING',
        createdAt: at(i),
      })
    const tx = (where: string, ...p: unknown[]) =>
      Number(store.db.sql.row(`SELECT count(*) FROM transactions WHERE ${where}`, ...p)![0])
    expect(listTransactions(store.db, {startDate: mid} as never, {limit: 5}).totalCount).toBe(
      tx('created_at >= ?', mid),
    )
    expect(listTransactions(store.db, {startDate: at(3), endDate: mid} as never, {limit: 5}).totalCount).toBe(
      tx('created_at >= ? AND created_at <= ?', at(3), mid),
    )
  })

  it('customerType and region together: a running counter per pair', () => {
    const q = {customerType: 'BUSINESS', region: 'US'} as never
    const expected = plain("is_deleted = 0 AND customer_type = 'BUSINESS' AND region = 'US'")
    expect(expected).toBeGreaterThan(0)
    expect(listCustomers(store.db, q, {limit: 2}).totalCount).toBe(expected)
    store.db.put('customers', 'Customer:999', {...customer(999), customerType: 'BUSINESS', region: 'US'})
    expect(listCustomers(store.db, q, {limit: 2}).totalCount).toBe(expected + 1)
  })

  it('a version-3 database gains the buckets on open, counted from its rows', async () => {
    await store.db.close()
    const conn = openConnection(join(store.dir, DB_FILE))
    conn.exec('DROP TABLE timeCounts')
    const triggers = conn
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_range\\_%' ESCAPE '\\'")
      .raw()
      .all() as unknown as Array<[string]>
    expect(triggers.length).toBeGreaterThan(0)
    for (const [name] of triggers) conn.exec(`DROP TRIGGER "${name}"`)
    conn.exec('PRAGMA user_version = 3')
    conn.close()
    store.open()
    expect(store.db.sql.row('PRAGMA user_version')).toEqual([SCHEMA_VERSION])
    expectExact()
    store.db.put('customers', 'Customer:1000', customer(7))
    expectExact()
  })
})
