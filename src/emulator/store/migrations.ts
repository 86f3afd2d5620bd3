import {existsSync, renameSync} from 'node:fs'
import {join} from 'node:path'
import {StoreTooNewError} from './errors.js'
import {readJournal} from './journal-import.js'
import type {Connection} from './sqlite.js'
import {COUNTS_TABLE_SQL, TABLES, createTableSql, upsertOf} from './tables.js'

/** The newest schema version; a table declares the version that added it with `since`. */
export const SCHEMA_VERSION = Math.max(1, ...TABLES.map((t) => t.since ?? 1))

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
    for (const t of TABLES) if ((t.since ?? 1) > from) for (const sql of createTableSql(t)) conn.exec(sql)
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
