import {existsSync, renameSync} from 'node:fs'
import {join} from 'node:path'
import {StoreTooNewError} from './errors.js'
import {readJournal} from './journal-import.js'
import type {Connection} from './sqlite.js'
import {COUNTS_TABLE_SQL, TABLES, createTableSql, indexName, upsertOf, type TableDef} from './tables.js'

/**
 * The newest schema version; a table declares the version that added it with `since`.
 * Version 3 (issue 20): list indexes that lead with each filter and continue in the keyset order,
 * new lookup columns (account currencies, external accounts' isDeleted), per-value counters and
 * the customers' currency side table.
 * Version 4 (issue 20): created_at buckets per month/day/hour/minute (`timeCounts`) for date-range
 * totals, and the (customerType, region) index and counters.
 * Version 5 (issue 31): the events' `object` column and its indexes (delivery in order per object).
 * Version 6 (issue 31): the events' `settled_at` and the idempotency records' `stored_at`, indexed,
 * which retention prunes by (store/retention.ts).
 */
export const SCHEMA_VERSION = Math.max(6, ...TABLES.map((t) => t.since ?? 1))

/**
 * Applies forward migrations from `PRAGMA user_version` up to SCHEMA_VERSION, all in one
 * transaction. A data dir of the journal era (journal.ndjson, no database yet) is imported in that
 * same transaction, and the journal is kept beside the database as journal.ndjson.imported.
 */
export function migrate(conn: Connection, dir: string, log: (line: string) => void): void {
  const from = Number((conn.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])
  if (from > SCHEMA_VERSION) throw new StoreTooNewError(join(dir, 'sandbox.db'), from, SCHEMA_VERSION)
  if (from === SCHEMA_VERSION) return
  const journal = join(dir, 'journal.ndjson')
  const importing = from === 0 && existsSync(journal)
  conn.exec('BEGIN IMMEDIATE')
  try {
    conn.exec(COUNTS_TABLE_SQL)
    // Every table is declared again: new tables are created, existing ones gain the columns
    // (filled from their documents), indexes, counters and triggers declared since; what is no
    // longer declared is dropped. All IF NOT EXISTS, so a fresh database takes the same path.
    for (const t of TABLES) {
      if (from > 0) addColumns(conn, t)
      for (const sql of createTableSql(t)) conn.exec(sql)
    }
    if (from > 0) dropUndeclared(conn)
    if (importing) {
      const {records, dropped} = readJournal(journal)
      const put = (table: string, id: string, doc: unknown) => {
        const def = TABLES.find((t) => t.name === table)
        if (!def) throw new Error(`journal record for unknown collection "${table}"`)
        const {sql, values} = upsertOf(def, id, doc)
        conn.prepare(sql).run(...values)
      }
      for (const [table, rows] of records) for (const [id, doc] of rows) put(table, id, doc)
      const n = [...records.values()].reduce((sum, rows) => sum + rows.size, 0)
      log(`imported ${n} record(s) from ${journal}${dropped ? ` (${dropped} torn line(s) dropped)` : ''}`)
    }
    conn.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
    conn.exec('COMMIT')
  } catch (e) {
    conn.exec('ROLLBACK')
    throw e
  }
  if (importing) renameSync(journal, journal + '.imported')
}

/** Adds the declared columns an existing table lacks, computed from each row's document. */
function addColumns(conn: Connection, t: TableDef): void {
  const exists = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").raw().get(t.name)
  if (!exists) return
  const have = new Set(
    (conn.prepare(`PRAGMA table_info("${t.name}")`).raw().all() as unknown as unknown[][]).map((r) => String(r[1])),
  )
  const missing = t.columns.filter((c) => !have.has(c.name))
  if (!missing.length) return
  for (const c of missing) conn.exec(`ALTER TABLE "${t.name}" ADD COLUMN ${c.name} ${c.type}`)
  const update = conn.prepare(`UPDATE "${t.name}" SET ${missing.map((c) => `${c.name} = ?`).join(', ')} WHERE id = ?`)
  for (const [id, doc] of conn.prepare(`SELECT id, doc FROM "${t.name}"`).raw().all() as unknown as Array<
    [string, string]
  >) {
    const d = JSON.parse(doc) as Record<string, unknown>
    update.run(...missing.map((c) => c.of(d) ?? null), id)
  }
}

/** Drops the indexes and triggers an earlier version declared and this one does not. */
function dropUndeclared(conn: Connection): void {
  const declared = new Set<string>()
  for (const t of TABLES) {
    for (const ix of t.indexes) declared.add(indexName(t, ix))
    for (const sql of createTableSql(t)) {
      const m = /^CREATE TRIGGER IF NOT EXISTS "?([\w.]+)"? /.exec(sql)
      if (m) declared.add(m[1]!)
    }
  }
  const rows = conn
    .prepare("SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL")
    .raw()
    .all() as unknown as Array<[string, string]>
  for (const [type, name] of rows)
    if (!declared.has(name)) conn.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} "${name}"`)
}
