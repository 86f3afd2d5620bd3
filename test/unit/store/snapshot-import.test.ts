import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Db, DB_FILE} from '../../../src/emulator/store/db.js'
import {SCHEMA_VERSION} from '../../../src/emulator/store/migrations.js'
import {importSnapshot} from '../../../src/emulator/store/snapshot-import.js'
import {inspectSnapshotSchema} from '../../../src/emulator/store/snapshot-schema.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-snapimport-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const one = (file: string, sql: string): unknown => {
  const conn = openConnection(file, {readonly: true, check: 'none'})
  try {
    return (conn.prepare(sql).raw().get() as unknown as unknown[] | undefined)?.[0]
  } finally {
    conn.close()
  }
}

describe('snapshot import: documents only, into a schema the code makes', () => {
  it('a database the code made has no problems; an older one whose tables lack later columns has none either', async () => {
    const db = Db.open(dir)
    db.put('config', 'platform', {sandbox: {}})
    db.put('internalAccounts', 'InternalAccount:1', {
      id: 'InternalAccount:1',
      customerId: 'Customer:1',
      type: 'INTERNAL_FIAT',
      balance: {amount: 5, currency: {code: 'EUR'}},
      createdAt: '2026-01-01T00:00:00.000Z',
    })
    for (let i = 1; i <= 3; i++)
      db.put('customers', `Customer:${i}`, {
        id: `Customer:${i}`,
        customerType: 'INDIVIDUAL',
        currencies: ['USD'],
        isDeleted: false,
        createdAt: `2026-01-0${i}T00:00:00.000Z`,
      })
    await db.close()
    const file = join(dir, DB_FILE)
    const conn = openConnection(file, {check: 'none'})
    expect(inspectSnapshotSchema(conn)).toEqual([])
    // As version 2 had it: no currency column yet. Lookup columns that disagree with the documents,
    // and counters that lie, are what a doctored file could bring: none of it is taken.
    const later = conn
      .prepare(
        "SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'internalAccounts' AND sql LIKE '%currency%'",
      )
      .raw()
      .all() as unknown as Array<[string, string]>
    for (const [type, name] of later) conn.exec(`DROP ${type.toUpperCase()} "${name}"`)
    conn.exec('ALTER TABLE internalAccounts DROP COLUMN currency')
    conn.exec("UPDATE internalAccounts SET customer_id = 'Customer:someone-else'")
    conn.exec("UPDATE counts SET n = 777777 WHERE name = 'customers'")
    conn.exec('PRAGMA user_version = 2')
    expect(inspectSnapshotSchema(conn)).toEqual([])
    conn.close()

    const out = join(dir, 'imported.db')
    const r = await importSnapshot(file, out)
    expect(r.rows).toBe(5)
    expect(one(out, 'PRAGMA user_version')).toBe(SCHEMA_VERSION)
    expect(one(out, "SELECT currency FROM internalAccounts WHERE id = 'InternalAccount:1'")).toBe('EUR')
    expect(one(out, "SELECT customer_id FROM internalAccounts WHERE id = 'InternalAccount:1'")).toBe('Customer:1')
    expect(one(out, "SELECT n FROM counts WHERE name = 'customers'")).toBe(3)
    // The schema of the copy is exactly the declared one.
    const copy = openConnection(out, {readonly: true, check: 'none'})
    expect(inspectSnapshotSchema(copy)).toEqual([])
    copy.close()
  })
})
