import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Db, DB_FILE} from '../../../src/emulator/store/db.js'
import {SCHEMA_VERSION} from '../../../src/emulator/store/migrations.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'
import {TABLES} from '../../../src/emulator/store/tables.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const V2 = [
  'apiTokens',
  'invitations',
  'stablecoinProviderAccounts',
  'stablecoins',
  'stablecoinOperations',
  'delegatedKeys',
]

describe('schema version 2 (issue 11 tables)', () => {
  it('declares the new tables with since: 2, each lookup column indexed', () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2)
    for (const name of V2) {
      const t = TABLES.find((x) => x.name === name)!
      expect(t.since, name).toBe(2)
      const indexed = new Set(t.indexes.flatMap((i) => i.columns))
      for (const c of t.columns) expect(indexed.has(c.name), `${name}.${c.name}`).toBe(true)
    }
  })

  it('a version-1 data dir gains the tables on open and keeps its data', async () => {
    const db = Db.open(dir)
    db.put('customers', 'Customer:kept', {
      id: 'Customer:kept',
      isDeleted: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    })
    await db.close()
    // Turn it into what the previous release wrote: no issue-11 tables, user_version 1.
    const conn = openConnection(join(dir, DB_FILE))
    for (const name of V2) conn.exec(`DROP TABLE "${name}"`)
    conn.exec('PRAGMA user_version = 1')
    conn.close()

    const reopened = Db.open(dir)
    expect(reopened.get('customers', 'Customer:kept')).toMatchObject({id: 'Customer:kept'})
    reopened.put('apiTokens', 'Token:1', {
      id: 'Token:1',
      clientId: 'c1',
      name: 'n',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    })
    expect(reopened.sql.row('SELECT id FROM apiTokens WHERE client_id = ?', 'c1')).toEqual(['Token:1'])
    expect(reopened.sql.row('PRAGMA user_version')).toEqual([SCHEMA_VERSION])
    for (const name of V2) expect(reopened.count(name), name).toBeGreaterThanOrEqual(0)
    await reopened.close()
  })
})
