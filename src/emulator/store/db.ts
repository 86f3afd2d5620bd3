import {existsSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {closedUncleanly, markClosed, markOpen} from './open-marker.js'
import {StoreUnavailableError, storeFaultOf} from './errors.js'
import {migrate} from './migrations.js'
import {openConnection, Statements, type Connection} from './sqlite.js'
import {TABLES, upsertOf, type TableDef} from './tables.js'

export const DB_FILE = 'sandbox.db'
export {OPEN_MARKER} from './open-marker.js'

/** How long a group commit may wait for requests already on their way in. */
const MAX_BATCH_WAIT_MS = 4
/** How long a batch waits for another process's write lock before its units are refused as busy. */
export const LOCK_WAIT_MS = 5_000
/** Each attempt at the write lock blocks at most this long (SQLite's busy handler); the rest of the wait yields the event loop. */
const BUSY_SLICE_MS = 20

interface Batch {
  done: Promise<void>
  resolve: () => void
  reject: (e: unknown) => void
}

/**
 * The sandbox's state in one SQLite file. Domain code reads and writes whole documents by table and
 * id (`get`/`put`/`del`); lookups by anything else live in the repository modules (store/*.ts),
 * which own their SQL and use `sql`.
 *
 * Every request and every scheduled job runs as a *unit*: units run one at a time, each inside a
 * SAVEPOINT, so a unit's writes land all together or (when it throws) not at all. Units that finish
 * in the same turn of the event loop share one COMMIT (group commit), and a unit resolves only after
 * the COMMIT that made it durable: the server answers only what is on disk.
 */
export class Db {
  readonly sql: Statements
  readonly file: string
  private readonly tables = new Map<string, TableDef>(TABLES.map((t) => [t.name, t]))
  private chain: Promise<unknown> = Promise.resolve()
  private batch?: Batch
  private inBatch = false
  private commitQueued = false
  private depth = 0
  private closed = false
  /** Requests that arrived and will run as units soon (their bodies are being read). */
  private expected = 0
  private batchStartedAt = 0
  private readonly rollbackListeners: Array<() => void> = []
  private readonly commitListeners: Array<() => void> = []
  /** Parsed documents of the tables declared `cached`, by table and id; cleared on rollback. */
  private readonly cache = new Map<string, Map<string, unknown>>()
  /** Writes made so far (put/del): a unit that made none is a read, safe to run again. */
  private writes = 0
  /** Since when the write lock has been refused to us (another process holds it); 0 when it has not. */
  private busySince = 0
  private readonly lockWaitMs: number

  private constructor(
    private readonly conn: Connection,
    file: string,
    private readonly marker: string,
    /** What the open checked: `full` after an unclean shutdown, `header` otherwise. */
    readonly openCheck: 'full' | 'header',
    opts: DbOptions = {},
  ) {
    this.lockWaitMs = opts.lockWaitMs ?? LOCK_WAIT_MS
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
    const conn = openConnection(file, {check: unclean ? 'full' : 'header'})
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
   * When the COMMIT of its batch fails (a full disk), a unit that wrote nothing is run once more in a
   * batch of its own: a read is not refused for what its neighbours tried to write.
   */
  async unit<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      return await this.unitOnce(fn)
    } catch (e) {
      if (!(e instanceof CommitFailed) || e.wrote) throw e instanceof CommitFailed ? e.cause : e
      try {
        return await this.unitOnce(fn)
      } catch (again) {
        throw again instanceof CommitFailed ? again.cause : again
      }
    }
  }

  private unitOnce<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = async (): Promise<{value?: T; error?: unknown; failed: boolean; wrote: boolean}> => {
      if (this.closed) return {failed: true, wrote: false, error: new Error('the sandbox database is closed')}
      try {
        await this.beginBatch()
      } catch (error) {
        return {failed: true, wrote: false, error}
      }
      this.conn.exec('SAVEPOINT unit')
      this.depth++
      const writesBefore = this.writes
      try {
        const value = await fn()
        this.conn.exec('RELEASE unit')
        return {value, failed: false, wrote: this.writes !== writesBefore}
      } catch (error) {
        this.conn.exec('ROLLBACK TO unit')
        this.conn.exec('RELEASE unit')
        for (const l of this.rollbackListeners) l()
        return {error, failed: true, wrote: false}
      } finally {
        this.depth--
        this.queueCommit()
      }
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result.then(async (r) => {
      if (r.failed) throw r.error
      try {
        await this.committed()
      } catch (e) {
        throw new CommitFailed(e, r.wrote)
      }
      return r.value as T
    })
  }

  /**
   * A request has arrived and will run as a unit once its body is read: the group commit waits for
   * it (a few ms at most), so one fsync covers every request in flight instead of just the first.
   * Returns the function to call when it is enqueued (or refused before).
   */
  expectUnit(): () => void {
    this.expected++
    let done = false
    return () => {
      if (!done) ((done = true), this.expected--)
    }
  }

  /** True while a unit is running (writes outside one autocommit on their own). */
  get inUnit(): boolean {
    return this.depth > 0
  }

  /** Called after a unit rolled back, so in-memory caches of rows can be dropped. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener)
  }

  /** Called after each COMMIT (the webhook outbox wakes up on it). */
  onCommit(listener: () => void): void {
    this.commitListeners.push(listener)
  }

  /**
   * Opens the batch's transaction with BEGIN IMMEDIATE, so the write lock is taken up front (a
   * deferred BEGIN could only fail later, at the first write, with no way to wait). While another
   * process holds the lock, it is tried again every few ms without blocking the event loop, up to
   * `lockWaitMs` counted from when the lock was first refused: past that, units are refused as busy
   * at once until the lock is free again, instead of each one waiting out the whole delay.
   */
  private async beginBatch(): Promise<void> {
    if (this.inBatch) return
    for (;;) {
      try {
        this.conn.exec('BEGIN IMMEDIATE')
        this.busySince = 0
        break
      } catch (e) {
        if (storeFaultOf(e) !== 'busy') throw e
        const now = performance.now()
        if (!this.busySince) this.busySince = now
        if (now - this.busySince >= this.lockWaitMs) {
          throw new StoreUnavailableError(
            'busy',
            `another process has held the sandbox database's write lock for over ${Math.round(this.lockWaitMs / 1000)} s (${this.file})`,
            {cause: e},
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    this.inBatch = true
    this.batchStartedAt = performance.now()
  }

  private currentBatch(): Batch {
    if (!this.batch) {
      let resolve!: () => void
      let reject!: (e: unknown) => void
      const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
      // A batch whose units all failed has no one awaiting its COMMIT: its failure is theirs, not an unhandled rejection.
      done.catch(() => undefined)
      this.batch = {done, resolve, reject}
    }
    return this.batch
  }

  private committed(): Promise<void> {
    if (!this.inBatch && !this.batch) return Promise.resolve()
    return this.currentBatch().done
  }

  /**
   * The COMMIT runs as a step of the unit chain, after the units already queued. While requests
   * that arrived are still on their way in, it waits for them, up to MAX_BATCH_WAIT_MS.
   */
  private queueCommit(): void {
    if (this.commitQueued) return
    this.commitQueued = true
    const enqueue = () => {
      if (this.expected > 0 && performance.now() - this.batchStartedAt < MAX_BATCH_WAIT_MS)
        return void setImmediate(enqueue)
      this.chain = this.chain.then(() => this.commit())
    }
    setImmediate(enqueue)
  }

  private commit(): void {
    this.commitQueued = false
    const batch = this.currentBatch()
    this.batch = undefined
    if (!this.inBatch) return batch.resolve()
    try {
      this.conn.exec('COMMIT')
      this.inBatch = false
      batch.resolve()
    } catch (e) {
      try {
        this.conn.exec('ROLLBACK')
      } catch {
        // nothing more to undo
      }
      this.inBatch = false
      for (const l of this.rollbackListeners) l()
      batch.reject(e)
      return
    }
    for (const l of this.commitListeners) l()
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
  async sync(): Promise<void> {
    await this.chain
    await this.committed()
  }

  /** A consistent copy of the whole database in `file` (VACUUM INTO), taken between units. */
  async backup(file: string): Promise<void> {
    await this.sync()
    const run = async () => {
      if (this.inBatch) this.commit()
      if (existsSync(file)) rmSync(file)
      this.conn.exec(`VACUUM INTO '${file.replaceAll("'", "''")}'`)
    }
    const done = this.chain.then(run)
    this.chain = done.catch(() => undefined)
    await done
  }

  async close(): Promise<void> {
    if (this.closed) return
    await this.sync()
    this.closed = true
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

/** The COMMIT of a unit's batch failed; `wrote` tells whether this unit had writes in it. */
class CommitFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly wrote: boolean,
  ) {
    super('commit failed', {cause})
  }
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
