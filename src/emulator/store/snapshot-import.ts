import {closeSync, existsSync, openSync, rmSync} from 'node:fs'
import {open} from 'node:fs/promises'
import {SCHEMA_VERSION} from './migrations.js'
import {attachSource, bulkCopyable, bulkInsertSql, exactSql} from './snapshot-bulk.js'
import {InvalidSnapshotError, inspectSnapshotSchema} from './snapshot-schema.js'
import {openConnection, StoreDamagedError, type Connection} from './sqlite.js'
import {COUNTS_TABLE_SQL, TABLES, createTableSql, upsertOf, type TableDef} from './tables.js'

/** The tables that hold credentials: API tokens' secret hashes, agents' tokens and unredeemed device codes. */
export const CREDENTIAL_TABLES = ['apiTokens', 'agentTokens', 'agentDeviceCodes'] as const
export type DroppedCredentials = Record<(typeof CREDENTIAL_TABLES)[number], number>

export interface ImportOptions {
  /** Keep the source's API and agent tokens: a restore of one's own backup. A hand-over (branch, upload, load) drops them. */
  keepCredentials?: boolean
  /** Called after every SLICE_MS of work, so a server can serve other sandboxes meanwhile (setImmediate). */
  pause?: () => Promise<void>
}

export interface ImportResult {
  tables: number
  rows: number
  droppedCredentials: DroppedCredentials
  /** Agents whose token or device code was dropped: kept, disconnected, connected again by a new device code. */
  agentsDisconnected: number
  /** The source's platform config document (settings, webhook endpoint), as copied. */
  platformConfig?: Record<string, unknown>
}

/** At most this long between pauses, so one import never holds a shared server's event loop for longer. */
const SLICE_MS = 10
const BATCH = 64
/** Rowids per INSERT ... SELECT of the bulk copy: a few ms of work, so a slice ends near SLICE_MS. */
const BULK_ROWS = 1000
/** The private file's page cache (KiB): index builds over a 10 MB table sort in memory. */
const CACHE_KB = 32 * 1024

/**
 * A sandbox database made by the current code from a snapshot's documents. The snapshot (an
 * uploaded file, a fixture, or another sandbox's database, serving or not) is checked against the
 * declared schema (snapshot-schema.ts: any other view, table, trigger or index is refused, named),
 * and then only the `id` and `doc` of each declared resource table are read from it, in one read
 * transaction (one committed state of a serving source). Lookup columns, indexes, triggers, counters
 * and side tables are all made here from the documents, so nothing of the snapshot's own schema,
 * statistics or counters comes along. Credentials do not either, unless `keepCredentials`.
 * The result is written to `target` (0600, fsynced, no WAL beside it).
 */
export async function importSnapshot(source: string, target: string, opts: ImportOptions = {}): Promise<ImportResult> {
  if (!existsSync(source)) throw new StoreDamagedError(source, 'no such file')
  const pause = opts.pause ?? (async () => {})
  const src = openConnection(source, {readonly: true, check: 'header'})
  let out: Connection | undefined
  try {
    const version = Number((src.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])
    if (version < 1) throw new StoreDamagedError(source, 'not a sandbox database (no schema version)')
    if (version > SCHEMA_VERSION)
      throw new StoreDamagedError(
        source,
        `schema version ${version} is newer than this svc understands (${SCHEMA_VERSION})`,
      )
    const problems = inspectSnapshotSchema(src)
    if (problems.length) throw new InvalidSnapshotError(source, problems)
    rmSync(target, {force: true})
    closeSync(openSync(target, 'wx', 0o600))
    out = openConnection(target, {check: 'none'})
    // A private file nobody reads until it is renamed into place: no journal, one fsync at the end.
    out.exec('PRAGMA journal_mode = OFF')
    out.exec('PRAGMA synchronous = OFF')
    out.exec(`PRAGMA cache_size = -${CACHE_KB}`)
    // The source beside it, read-only: one transaction of this connection reads every table from the
    // same committed state and writes the copy, and SQL computes the lookup columns (snapshot-bulk.ts).
    attachSource(out, source)
    out.exec('BEGIN')
    // The tables first, bare: rows land without per-row index and trigger work (the bulk of a copy's
    // time); indexes, counters, side tables and triggers are then made over them, statement by statement.
    for (const t of TABLES) out.exec(createTableSql(t)[0]!)
    const present = new Set(
      (out.prepare("SELECT name FROM src.sqlite_master WHERE type = 'table'").raw().all() as unknown as string[][]).map(
        (r) => r[0]!,
      ),
    )

    const result: ImportResult = {
      tables: 0,
      rows: 0,
      droppedCredentials: {apiTokens: 0, agentTokens: 0, agentDeviceCodes: 0},
      agentsDisconnected: 0,
    }
    const drop = !opts.keepCredentials
    // Every SLICE_MS, let the server serve others. While rows are copied the transaction stays open
    // (it is the source's read snapshot too); once they are, each pause commits what was written
    // (no journal, no sync: the slice's pages go to the OS, never one burst of the whole file at the end).
    let slice = performance.now()
    let copying = true
    const breathe = async () => {
      if (!copying) out!.exec('COMMIT')
      await pause()
      if (!copying) out!.exec('BEGIN')
      slice = performance.now()
    }
    for (const t of TABLES) {
      if (!present.has(t.name)) continue
      if (drop && (CREDENTIAL_TABLES as readonly string[]).includes(t.name)) {
        const n = Number((out.prepare(`SELECT count(*) FROM src."${t.name}"`).raw().get() as unknown as unknown[])[0])
        result.droppedCredentials[t.name as keyof DroppedCredentials] = n
        continue
      }
      result.tables++
      const bulk = bulkCopyable(t) && !(drop && t.name === 'agents')
      let left = 1 // rows the JS path must take: unknown (any) unless every row was copied in bulk
      if (bulk) {
        left = Number((out.prepare(`SELECT count(*) FROM src."${t.name}"`).raw().get() as unknown as unknown[])[0])
        const insert = out.prepare(bulkInsertSql(t))
        const last = Number(
          (out.prepare(`SELECT max(rowid) FROM src."${t.name}"`).raw().get() as unknown as unknown[])[0] ?? 0,
        )
        for (let after = 0; after < last; after += BULK_ROWS) {
          const copied = Number(insert.run(after, after + BULK_ROWS).changes)
          result.rows += copied
          left -= copied
          if (performance.now() - slice >= SLICE_MS) await breathe()
        }
      }
      // The rows SQL cannot make exactly (or every row of a table without such columns): one by one, in JS.
      // json_valid: SQLite checks the documents a JS parse is not needed for (tables without lookup columns).
      if (left <= 0) continue
      const read = out.prepare(
        `SELECT rowid, id, doc, json_valid(doc) FROM src."${t.name}" WHERE rowid > ?${bulk ? ` AND NOT (${exactSql(t)})` : ''} ORDER BY rowid LIMIT ${BATCH}`,
      )
      read.raw(true)
      const write = out.prepare(upsertOf(t, '', {}).sql)
      for (let after = 0; ;) {
        const rows = read.all(after) as unknown as Array<[number, unknown, unknown, number]>
        if (!rows.length) break
        for (const [rowid, id, text, valid] of rows) {
          if (typeof id !== 'string' || typeof text !== 'string')
            throw new InvalidSnapshotError(source, [
              {object: `row ${rowid} of table "${t.name}"`, message: 'has no id or document'},
            ])
          if (!valid) throw notJson(source, t.name, id)
          if (!t.columns.length && t.name !== 'agents' && t.name !== 'config') {
            write.run(id, text)
          } else {
            const doc = parseDoc(source, t.name, id, text)
            if (t.name === 'config' && id === 'platform') result.platformConfig = doc
            if (drop && t.name === 'agents' && (doc?._?.tokenHash || doc._?.deviceCode || doc.isConnected)) {
              doc._ = {...doc._, tokenHash: undefined, deviceCode: undefined}
              doc.isConnected = false
              result.agentsDisconnected++
              write.run(...rowValues(source, t, id, doc, JSON.stringify(doc)))
            } else write.run(...rowValues(source, t, id, doc, text))
          }
          result.rows++
          if (performance.now() - slice >= SLICE_MS) await breathe()
        }
        after = Number(rows[rows.length - 1]![0])
      }
    }
    out.exec('COMMIT')
    out.exec('DETACH src')
    copying = false
    out.exec('BEGIN')
    out.exec(COUNTS_TABLE_SQL)
    for (const t of TABLES)
      for (const sql of createTableSql(t).slice(1)) {
        out.exec(sql)
        if (performance.now() - slice >= SLICE_MS) await breathe()
      }
    out.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
    out.exec('COMMIT')
    out.close()
    out = undefined
    // In the thread pool: an fsync of a large file would otherwise hold the event loop.
    const fh = await open(target, 'r+')
    try {
      await fh.sync()
    } finally {
      await fh.close()
    }
    return result
  } catch (e) {
    out?.close()
    rmSync(target, {force: true})
    throw damagedAsStore(e, source)
  } finally {
    src.close()
  }
}

type Doc = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A stored document: JSON (most are objects; a few tables keep a number or a list). */
function parseDoc(source: string, table: string, id: string, text: string): Doc {
  try {
    return JSON.parse(text) as Doc
  } catch {
    throw notJson(source, table, id)
  }
}

const notJson = (source: string, table: string, id: string) =>
  new InvalidSnapshotError(source, [{object: `row "${id}" of table "${table}"`, message: 'is not a JSON document'}])

/** The row's values in upsertOf's order, its lookup columns computed from the document as every write computes them. */
function rowValues(source: string, t: TableDef, id: string, doc: Doc, text: string): unknown[] {
  try {
    const values = t.columns.map((c) => c.of(doc) ?? null)
    // A boolean or object where the domain code writes a string or number: libsql aborts the process
    // on a boolean parameter and throws on an object, so the document is refused here instead.
    if (values.some((v) => v !== null && typeof v !== 'string' && typeof v !== 'number'))
      throw new TypeError('a lookup value that is not a string or number')
    return [id, text, ...values]
  } catch {
    throw new InvalidSnapshotError(source, [
      {object: `row "${id}" of table "${t.name}"`, message: `is not a ${t.name} document`},
    ])
  }
}

/** SQLite's own complaints about the file while it is read (a damaged page) are a damaged snapshot. */
function damagedAsStore(e: unknown, source: string): unknown {
  const msg = (e as Error)?.message ?? ''
  if (/malformed|not a database|corrupt|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(msg))
    return new StoreDamagedError(source, msg)
  return e
}
