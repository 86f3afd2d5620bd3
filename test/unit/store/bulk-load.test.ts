import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {bulkLoad} from '../../../src/emulator/store/bulk-load.js'
import {Db} from '../../../src/emulator/store/db.js'

// A bulk load must leave the database exactly as the same puts one by one would: same rows, same
// counters, same side table, same triggers (so the puts after it keep everything current).

const root = mkdtempSync(join(tmpdir(), 'svc-bulk-'))
afterAll(() => rmSync(root, {recursive: true, force: true}))
const open = (name: string) => (mkdirSync(join(root, name)), Db.open(join(root, name)))

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 97_000).toISOString()
function docs(from: number, to: number): Array<[string, string, Record<string, unknown>]> {
  const out: Array<[string, string, Record<string, unknown>]> = []
  for (let i = from; i < to; i++) {
    const id = `Customer:${i}`
    out.push([
      'customers',
      id,
      {
        id,
        platformCustomerId: `p-${i}`,
        customerType: i % 5 === 0 ? 'BUSINESS' : 'INDIVIDUAL',
        region: ['US', 'MX', 'GB'][i % 3],
        currencies: i % 4 === 0 ? ['USD', 'EUR'] : ['USD'],
        isDeleted: i % 11 === 0,
        createdAt: at(i),
        updatedAt: at(i),
      },
    ])
    out.push([
      'transactions',
      `Transaction:${i}`,
      {
        id: `Transaction:${i}`,
        customerId: id,
        status: ['PENDING', 'COMPLETED'][i % 2],
        type: 'INCOMING',
        createdAt: at(i),
      },
    ])
  }
  return out
}

/** Everything derived from the rows, in a comparable form. */
function derived(db: Db) {
  const all = (sql: string) => db.sql.rows(sql)
  return {
    counts: all('SELECT name, n FROM counts WHERE n != 0 ORDER BY name'),
    timeCounts: all('SELECT name, bucket, n FROM timeCounts WHERE n != 0 ORDER BY name, bucket'),
    currencies: all('SELECT * FROM customerCurrencies ORDER BY 1, 2, 3'),
    triggers: all("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"),
    customers: all('SELECT * FROM customers ORDER BY id'),
  }
}

describe('bulkLoad', () => {
  it('leaves what row-by-row puts leave, and the triggers keep it current afterwards', async () => {
    const one = open('one')
    const bulk = open('bulk')
    try {
      await one.unit(() => {
        for (const [t, id, d] of docs(0, 300)) one.put(t, id, d)
      })
      await bulk.unit(() => {
        for (const [t, id, d] of docs(0, 40)) bulk.put(t, id, d) // rows already there before the load
      })
      await bulkLoad(bulk, (put) => {
        for (const [t, id, d] of docs(40, 300)) put(t, id, d)
      })
      expect(derived(bulk)).toEqual(derived(one))
      expect(derived(bulk).counts.length).toBeGreaterThan(20)
      // puts after the load
      for (const db of [one, bulk])
        await db.unit(() => {
          for (const [t, id, d] of docs(290, 320)) db.put(t, id, {...d, isDeleted: true, currencies: ['MXN']})
        })
      expect(derived(bulk)).toEqual(derived(one))
    } finally {
      await one.close()
      await bulk.close()
    }
  })

  it('a load that throws leaves nothing behind, triggers included', async () => {
    const db = open('throws')
    try {
      const before = derived(db)
      await expect(
        bulkLoad(db, (put) => {
          for (const [t, id, d] of docs(0, 10)) put(t, id, d)
          throw new Error('disk full')
        }),
      ).rejects.toThrow('disk full')
      expect(derived(db)).toEqual(before)
      expect(before.triggers.length).toBeGreaterThan(10)
    } finally {
      await db.close()
    }
  })
})
