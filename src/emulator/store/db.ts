import {chmodSync, existsSync, rmSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {closedUncleanly, markClosed, markOpen} from './open-marker.js'
import {StoreUnavailableError} from './errors.js'
import {migrate} from './migrations.js'
import {openConnection, Statements, type Connection} from './sqlite.js'
import {TABLES, upsertOf, type TableDef} from './tables.js'
import {Units} from './units.js'

export const DB_FILE = 'sandbox.db'
export {OPEN_MARKER} from './open-marker.js'
export {LOCK_WAIT_MS} from './units.js'

/**
 * The database holds wallet mnemonics and token secrets: it, its WAL and its shared-memory file are
 * 0600 whatever the umask or the data dir's mode (issue 29 F11). SQLite gives the WAL and -shm the
 * database file's mode, so the file is created under umask 077 (opening is synchronous: no other
 * code runs meanwhile) and files left more open by an older version are narrowed.
 */
function privately<T>(file: string, open: () => T): T {
  for (const f of [file, `${file}-wal`, `${file}-shm`])
    if (existsSync(f) && (statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600)
  const before = process.umask(0o077)
  try {
    return open()
  } finally {
    process.umask(before)
  }
}

/** Each attempt at the write lock blocks at most this long (SQLite's busy handler); the rest of the wait yields the event loop. */
const BUSY_SLICE_MS = 20

/**
 * The sandbox's state in one SQLite file. Domain code reads and writes whole documents by table and
 * id (`get`/`put`/`del`); lookups by anything else live in the repository modules (store/*.ts),
 * which own their SQL and use `sql`.
 *
 * Every request and every scheduled job runs as a *unit*: units run one at a time, each inside a
 * SAVEPOINT, so a unit's writes land all together or (when it throws) not at all. Units that finish
 * in the same turn of the event loop share one COMMIT (group commit), and a unit resolves only after
 * the COMMIT that made it durable: the server answers only what is on disk (store/units.ts).
 */
export class Db {
  readonly sql: Statements
  readonly file: string
  private readonly tables = new Map<string, TableDef>(TABLES.map((t) => [t.name, t]))
  private readonly units: Units
  private closed = false
  /** Parsed documents of the tables declared `cached`, by table and id; cleared on rollback. */
  private readonly cache = new Map<string, Map<string, unknown>>()
  /** Writes made so far (put/del): a unit that made none is a read, safe to run again. */
  private writes = 0

  private constructor(
    private readonly conn: Connection,
    file: string,
    private readonly marker: string,
    /** What the open checked: `full` after an unclean shutdown, `header` otherwise. */
    readonly openCheck: 'full' | 'header',
    opts: DbOptions = {},
  ) {
    this.units = new Units(conn, file, () => this.writes, opts.lockWaitMs)
    this.sql = new Statements(conn)
    this.file = file
    for (const t of TABLES) if (t.cached) this.cache.set(t.name, new Map())
    this.onRollback(() => {
      for (const m of this.cache.values()) m.clear()
    })
  }

  /**
   * Opens (creating or migrating) the database in `dir`; refuses a damaged file (StoreDamagedError).
   * The full integrity check is O(database), so it runs only when the last process to open the
   * file did not close it (its OPEN_MARKER is still there: a crash, a kill -9); a clean start
   * pays the O(1) header check. `svc doctor` and restore/snapshot load run integrity_check.
   */
  static open(dir: string, log: (line: string) => void = () => {}, opts: DbOptions = {}): Db {
    const file = join(dir, DB_FILE)
    const unclean = closedUncleanly(dir)
    const t0 = performance.now()
    const conn = privately(file, () => openConnection(file, {check: unclean ? 'full' : 'header'}))
    if (unclean)
      log(
        `unclean shutdown: ran the full integrity check (quick_check) on ${file}: ok in ${Math.round(performance.now() - t0)} ms`,
      )
    let marker: string
    try {
      migrate(conn, dir, log)
      conn.exec(`PRAGMA busy_timeout = ${BUSY_SLICE_MS}`)
      marker = markOpen(dir)
    } catch (e) {
      conn.close()
      throw e
    }
    return new Db(conn, file, marker, unclean ? 'full' : 'header', opts)
  }

  /**
   * Runs `fn` as one atomic unit (see the class comment); resolves once its writes are committed.
   * A unit that wrote nothing is run once more when its batch's COMMIT fails (store/units.ts).
   */
  unit<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.units.unit(fn)
  }

  /** A request has arrived and will run as a unit once its body is read (the group commit waits for it). */
  expectUnit(): () => void {
    return this.units.expectUnit()
  }

  /** True while a unit is running (writes outside one autocommit on their own). */
  get inUnit(): boolean {
    return this.units.inUnit
  }

  /** Called after a unit rolled back, so in-memory caches of rows can be dropped. */
  onRollback(listener: () => void): void {
    this.units.onRollback(listener)
  }

  /** Called after each COMMIT (the webhook outbox wakes up on it). */
  onCommit(listener: () => void): void {
    this.units.onCommit(listener)
  }

  private table(name: string): TableDef {
    const t = this.tables.get(name)
    if (!t) throw new Error(`no table "${name}" in the sandbox schema (declare it in src/emulator/store/tables.ts)`)
    return t
  }

  get<T>(table: string, id: string): T | undefined {
    this.table(table)
    const cache = this.cache.get(table)
    if (cache?.has(id)) return cache.get(id) as T
    const row = this.sql.row(`SELECT doc FROM "${table}" WHERE id = ?`, id)
    const doc = row ? parseDoc<T>(row[0], table) : undefined
    if (cache && doc !== undefined) cache.set(id, doc)
    return doc
  }

  /** Parses rows whose first column is `doc`. */
  docs<T>(rows: unknown[][]): T[] {
    return rows.map((r) => parseDoc<T>(r[0]))
  }

  put<T>(table: string, id: string, value: T): T {
    const {sql, values} = upsertOf(this.table(table), id, value)
    this.writes++
    this.sql.write(sql).run(...values)
    this.cache.get(table)?.set(id, value)
    return value
  }

  del(table: string, id: string): void {
    this.table(table)
    this.writes++
    this.sql.write(`DELETE FROM "${table}" WHERE id = ?`).run(id)
    this.cache.get(table)?.delete(id)
  }

  /** Every document of a table, in insertion order. A full scan: for tests and tiny tables only. */
  all<T>(table: string): T[] {
    this.table(table)
    return this.docs<T>(this.sql.rows(`SELECT doc FROM "${table}" ORDER BY rowid`))
  }

  count(table: string): number {
    this.table(table)
    return Number(this.sql.row(`SELECT count(*) FROM "${table}"`)![0])
  }

  /** Resolves once every unit queued so far is committed. */
  sync(): Promise<void> {
    return this.units.sync()
  }

  /** A consistent copy of the whole database in `file` (VACUUM INTO), taken between units. */
  backup(file: string): Promise<void> {
    return this.units.between(() => {
      if (existsSync(file)) rmSync(file)
      this.conn.exec(`VACUUM INTO '${file.replaceAll("'", "''")}'`)
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.units.close()
    // Fold the WAL into the database file, so a cleanly stopped sandbox is one self-contained file.
    try {
      this.conn.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // another reader holds the WAL open: SQLite keeps it, nothing is lost
    }
    this.conn.close()
    markClosed(this.marker)
  }
}

export interface DbOptions {
  /** How long to wait for another process's write lock (default LOCK_WAIT_MS). */
  lockWaitMs?: number
}

/** A stored document; one that is no longer JSON was damaged on disk (SQLite keeps no record checksums). */
function parseDoc<T>(text: unknown, table?: string): T {
  try {
    return JSON.parse(text as string) as T
  } catch (e) {
    throw new StoreUnavailableError(
      'damaged',
      `a record${table ? ` of ${table}` : ''} is not readable (${(e as Error).message})`,
      {cause: e},
    )
  }
}
