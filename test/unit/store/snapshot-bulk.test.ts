import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Db, DB_FILE} from '../../../src/emulator/store/db.js'
import {bulkCopyable} from '../../../src/emulator/store/snapshot-bulk.js'
import {importSnapshot} from '../../../src/emulator/store/snapshot-import.js'
import {InvalidSnapshotError} from '../../../src/emulator/store/snapshot-schema.js'
import {openConnection} from '../../../src/emulator/store/sqlite.js'
import {TABLES, createTableSql, upsertOf} from '../../../src/emulator/store/tables.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-snapbulk-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

const customers = TABLES.find((t) => t.name === 'customers')!
const base = (id: string) =>
  `"id":"${id}","customerType":"INDIVIDUAL","currencies":["USD"],"createdAt":"2026-01-01T00:00:00.000Z"`
// Documents the domain code writes, and ones only a doctored snapshot holds: each must get the
// lookup columns the JS `of` gives, whether SQL or JS computes them.
const DOCS: Record<string, string> = {
  plain: `{${base('plain')},"platformCustomerId":"p-1","region":"US","isDeleted":false,"updatedAt":"2026-01-02T00:00:00.000Z"}`,
  deleted: `{${base('deleted')},"region":null,"isDeleted":true}`,
  absent: `{${base('absent')}}`,
  numberInText: `{${base('numberInText')},"platformCustomerId":12345,"region":1.5}`,
  objectInBool: `{${base('objectInBool')},"isDeleted":[]}`,
  stringInBool: `{${base('stringInBool')},"isDeleted":"no"}`,
  emptyStringBool: `{${base('emptyStringBool')},"isDeleted":""}`,
  zeroBool: `{${base('zeroBool')},"isDeleted":0}`,
  oneBool: `{${base('oneBool')},"isDeleted":1}`,
  nullBool: `{${base('nullBool')},"isDeleted":null}`,
  duplicateKey: `{${base('duplicateKey')},"region":"first","region":"last"}`,
  escaped: `{${base('escaped')},"region":"\\u0055S","fullName":"\\ud83d\\ude00"}`,
  arrayDoc: `[1,2]`,
  numberDoc: `42`,
}

/** A source database with DOCS as customers, written raw (as a doctored file would hold them). */
async function source(name: string, docs: Record<string, string>): Promise<string> {
  const sub = join(dir, name)
  mkdirSync(sub)
  const db = Db.open(sub)
  db.put('config', 'platform', {sandbox: {}})
  for (let i = 0; i < 50; i++) db.put('customers', `Customer:${i}`, JSON.parse(`{${base(`Customer:${i}`)}}`))
  await db.close()
  const conn = openConnection(join(sub, DB_FILE), {check: 'none'})
  // The source's own lookup columns are never read: is_deleted only keeps its counting triggers whole.
  const put = conn.prepare('INSERT INTO customers (id, doc, is_deleted) VALUES (?, ?, 0)')
  for (const [id, doc] of Object.entries(docs)) put.run(id, doc)
  conn.close()
  return join(sub, DB_FILE)
}

/** The columns the domain code computes for each document (upsertOf: what every write stores). */
function expected(docs: Array<[string, string]>): unknown[][] {
  const mem = openConnection(':memory:', {check: 'none'})
  mem.exec(createTableSql(customers)[0]!)
  for (const [id, doc] of docs) {
    const {sql, values} = upsertOf(customers, id, JSON.parse(doc))
    mem.prepare(sql).run(...values)
  }
  const rows = mem.prepare(`SELECT * FROM customers ORDER BY id`).raw().all() as unknown as unknown[][]
  mem.close()
  return rows.map((r) => [r[0], ...r.slice(2)])
}

describe('snapshot import in bulk: lookup columns computed in SQL equal the domain code', () => {
  it('customers is copied in bulk (every column is one property of the document)', () => {
    expect(bulkCopyable(customers)).toBe(true)
    expect(bulkCopyable(TABLES.find((t) => t.name === 'config')!)).toBe(false)
  })

  it('every document gets the columns its JS `of` gives, documents kept byte for byte', async () => {
    const file = await source('mixed', DOCS)
    const out = join(dir, 'mixed-out.db')
    const r = await importSnapshot(file, out)
    expect(r.rows).toBe(1 + 50 + Object.keys(DOCS).length)
    const conn = openConnection(out, {readonly: true, check: 'none'})
    const got = conn.prepare('SELECT * FROM customers ORDER BY id').raw().all() as unknown as unknown[][]
    conn.close()
    const all = got.map((row) => [row[0] as string, row[1] as string] as [string, string])
    expect(got.map((row) => [row[0], ...row.slice(2)])).toEqual(expected(all))
    expect(Object.fromEntries(all.filter(([id]) => id in DOCS))).toEqual(DOCS)
    const byId = Object.fromEntries(got.map((row) => [row[0], row]))
    const cols = ['id', 'doc', ...customers.columns.map((c) => c.name)]
    const col = (id: string, name: string) => byId[id]![cols.indexOf(name)]
    expect(col('duplicateKey', 'region')).toBe('last')
    expect(col('escaped', 'region')).toBe('US')
    // As every write stores it (libsql binds a JS number as a REAL), where json_extract would give '12345'.
    expect(col('numberInText', 'platform_customer_id')).toBe('12345.0')
    expect(col('stringInBool', 'is_deleted')).toBe(1)
    expect(col('emptyStringBool', 'is_deleted')).toBe(0)
  })

  it('a document JSON.parse refuses (JSON5, which SQLite accepts) or a boolean or object lookup value is refused, naming the row', async () => {
    for (const [name, doc] of [
      ['json5', `{id: 'x', region: 'US'}`],
      ['bool', `{${base('bool')},"region":true}`],
      ['object', `{${base('object')},"region":{"code":"US"}}`],
    ]) {
      const out = join(dir, `${name}-out.db`)
      const err = await importSnapshot(await source(name, {[name]: doc}), out).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(InvalidSnapshotError)
      expect((err as InvalidSnapshotError).problems[0]!.object).toBe(`row "${name}" of table "customers"`)
    }
  })
})
