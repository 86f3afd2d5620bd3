import type {Db} from './db.js'
import {COUNTS_TABLE_SQL, TABLES, TIME_COUNTS_TABLE_SQL, createTableSql} from './tables.js'

/** Page cache while loading: the indexes being grown stay in memory instead of spilling to the WAL. */
const LOAD_CACHE_KIB = 1_000_000

/**
 * Puts many documents in one unit, for loading a big sandbox at once (the scale bench). Row by row,
 * the triggers that keep counters and side tables cost most of a put (4x, measured); here the rows
 * go in with the same upserts (same columns, same indexes) while those triggers are off, then every
 * counter and side table is computed again from all the rows with one grouped statement each (the
 * statements a migration fills them with) and the triggers are created again, in the same unit:
 * afterwards the database is what the same puts one by one would have made, or, if anything
 * throws, what it was before.
 */
export async function bulkLoad(db: Db, fill: (put: Db['put']) => void): Promise<void> {
  const run = (sql: string) => db.sql.write(sql).run()
  const cacheBefore = Number(db.sql.row('PRAGMA cache_size')![0])
  run(`PRAGMA cache_size = -${LOAD_CACHE_KIB}`)
  try {
    await db.unit(() => {
      const triggers = db.sql.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'").map((r) => String(r[0]))
      for (const name of triggers) run(`DROP TRIGGER "${name}"`)
      fill((table, id, doc) => db.put(table, id, doc))
      // Everything the triggers keep, from nothing: the declared schema fills what is empty.
      for (const t of ['counts', 'timeCounts', 'customerCurrencies']) run(`DELETE FROM "${t}"`)
      run(COUNTS_TABLE_SQL)
      run(TIME_COUNTS_TABLE_SQL)
      for (const t of TABLES) for (const sql of createTableSql(t)) run(sql)
    })
  } finally {
    run(`PRAGMA cache_size = ${cacheBefore}`)
  }
}
