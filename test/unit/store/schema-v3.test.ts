import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {pageExternalAccounts, pageInternalAccounts} from '../../../src/emulator/store/accounts.js'
import {listCustomers} from '../../../src/emulator/store/customers.js'
import {Db, DB_FILE} from '../../../src/emulator/store/db.js'
import {SCHEMA_VERSION} from '../../../src/emulator/store/migrations.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-schema3-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()
const customer = (i: number, over: Record<string, unknown> = {}) => ({
  id: `Customer:${i}`,
  customerType: i % 3 === 0 ? 'BUSINESS' : 'INDIVIDUAL',
  region: i % 2 ? 'US' : 'MX',
  currencies: i % 4 === 0 ? ['USD', 'EUR'] : ['USD'],
  isDeleted: false,
  createdAt: at(i),
  updatedAt: at(i),
  ...over,
})

describe('schema version 3 (issue 20 list indexes)', () => {
  it('a version-2 database gains the columns, side table, counters and indexes on open, filled from its documents', async () => {
    const db = Db.open(dir)
    for (let i = 1; i <= 12; i++) db.put('customers', `Customer:${i}`, customer(i, i === 12 ? {isDeleted: true} : {}))
    db.put('internalAccounts', 'InternalAccount:1', {
      id: 'InternalAccount:1',
      customerId: 'Customer:1',
      type: 'INTERNAL_FIAT',
      balance: {amount: 0, currency: {code: 'EUR'}},
      createdAt: at(1),
    })
    db.put('externalAccounts', 'ExternalAccount:1', {
      id: 'ExternalAccount:1',
      customerId: 'Customer:1',
      currency: 'MXN',
      createdAt: at(1),
    })
    db.put('externalAccounts', 'ExternalAccount:2', {
      id: 'ExternalAccount:2',
      customerId: 'Customer:1',
      currency: 'MXN',
      isDeleted: true,
      createdAt: at(2),
    })
    await db.close()

    // Turn it into what the previous release wrote: v2's indexes, no v3 columns, side table, counters.
    const conn = openConnection(join(dir, DB_FILE))
    const v3 = conn
      .prepare("SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL")
      .raw()
      .all() as unknown as Array<[string, string]>
    for (const [type, name] of v3)
      if (/^(customers|internalAccounts|externalAccounts|transactions|customerCurrencies|cards|agents)_/.test(name))
        conn.exec(`DROP ${type.toUpperCase()} "${name}"`)
    conn.exec('DROP TABLE customerCurrencies')
    conn.exec('ALTER TABLE internalAccounts DROP COLUMN currency')
    conn.exec('ALTER TABLE externalAccounts DROP COLUMN is_deleted')
    conn.exec('ALTER TABLE externalAccounts DROP COLUMN currency')
    conn.exec("DELETE FROM counts WHERE name LIKE '%:%' OR name IN ('cards', 'agents')")
    conn.exec('CREATE INDEX customers_is_deleted_created_at_id ON customers (is_deleted, created_at, id)')
    conn.exec(
      'CREATE INDEX customers_platform_customer_id_partial ON customers (platform_customer_id) WHERE is_deleted = 0',
    )
    conn.exec('PRAGMA user_version = 2')
    conn.close()

    const re = Db.open(dir)
    try {
      expect(re.sql.row('PRAGMA user_version')).toEqual([SCHEMA_VERSION])
      const indexes = new Set(
        re.sql.rows("SELECT name FROM sqlite_master WHERE type = 'index'").map((r) => String(r[0])),
      )
      expect(indexes.has('customers_is_deleted_created_at_id')).toBe(false) // no longer declared: dropped
      expect(indexes.has('customers_platform_customer_id_partial')).toBe(false)
      expect(indexes.has('customers_customer_type_created_at_id')).toBe(true)
      // the side table, from the documents: 11 active customers hold USD, 3 of them EUR too (4, 8; 12 is deleted)
      const eur = listCustomers(re, {currency: 'EUR'} as never, {limit: 10})
      expect(eur.rows.map((c) => c.id)).toEqual(['Customer:4', 'Customer:8'])
      expect(eur.totalCount).toBe(2)
      expect(listCustomers(re, {currency: 'EUR', isIncludingDeleted: 'true'} as never, {limit: 10}).totalCount).toBe(3)
      expect(listCustomers(re, {currency: 'USD'} as never, {limit: 10}).totalCount).toBe(11)
      // per-value counters, counted once at the migration
      expect(listCustomers(re, {customerType: 'BUSINESS'} as never, {limit: 10}).totalCount).toBe(3) // 3, 6, 9 (12 deleted)
      expect(listCustomers(re, {region: 'MX', isIncludingDeleted: 'true'} as never, {limit: 10}).totalCount).toBe(6)
      // new columns, from each row's document
      expect(pageInternalAccounts(re, {currency: 'EUR'}, {limit: 10}).rows.map((a) => a.id)).toEqual([
        'InternalAccount:1',
      ])
      expect(pageExternalAccounts(re, {platform: false, currency: 'MXN'}, {limit: 10}).rows.map((a) => a.id)).toEqual([
        'ExternalAccount:1',
      ])

      // and the triggers keep it all current from here on
      re.put('customers', 'Customer:4', customer(4, {currencies: ['USD'], isDeleted: false}))
      re.put('customers', 'Customer:13', customer(13, {currencies: ['EUR'], customerType: 'BUSINESS'}))
      re.put('customers', 'Customer:9', customer(9, {isDeleted: true}))
      expect(listCustomers(re, {currency: 'EUR'} as never, {limit: 10}).rows.map((c) => c.id)).toEqual([
        'Customer:8',
        'Customer:13',
      ])
      expect(listCustomers(re, {currency: 'EUR'} as never, {limit: 10}).totalCount).toBe(2)
      expect(listCustomers(re, {customerType: 'BUSINESS'} as never, {limit: 10}).totalCount).toBe(3) // 3, 6, 13
      re.del('customers', 'Customer:13')
      expect(listCustomers(re, {currency: 'EUR'} as never, {limit: 10}).totalCount).toBe(1)
      expect(
        listCustomers(re, {customerType: 'BUSINESS', isIncludingDeleted: 'true'} as never, {limit: 10}).totalCount,
      ).toBe(4) // 3, 6, 9, 12
    } finally {
      await re.close()
    }
  })

  it("a filtered chain counts once: later pages carry the first page's count in the cursor", async () => {
    const db = Db.open(dir)
    try {
      // A combination no counter answers (a created-at window alone reads the timeCounts buckets).
      const q = {createdAfter: at(2), customerType: 'INDIVIDUAL'} as never
      const p1 = listCustomers(db, q, {limit: 2})
      expect(p1.totalCount).toBe(7) // 2..11 active, less the deleted 9, less the businesses 3 and 6
      const last = p1.rows[1]!
      const counts: string[] = []
      const row = db.sql.row.bind(db.sql)
      db.sql.row = (sql: string, ...params: unknown[]) => (counts.push(sql), row(sql, ...params))
      try {
        const p2 = listCustomers(db, q, {limit: 2, after: {createdAt: last.createdAt, id: last.id, total: 7}})
        expect(p2.totalCount).toBe(7)
        expect(p2.rows.slice(0, 2).map((c) => c.id)).toEqual(['Customer:5', 'Customer:7'])
      } finally {
        db.sql.row = row
      }
      expect(counts.filter((s) => /count\(\*\)/.test(s))).toEqual([])
    } finally {
      await db.close()
    }
  })
})
