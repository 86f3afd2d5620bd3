import {createRequire} from 'node:module'
import {existsSync, statSync} from 'node:fs'

/** The subset of libsql's better-sqlite3-compatible API the store uses. */
export interface Statement {
  run(...params: unknown[]): {changes: number}
  get(...params: unknown[]): Record<string, unknown> | undefined
  all(...params: unknown[]): Array<Record<string, unknown>>
  raw(on?: boolean): Statement
}

export interface Connection {
  prepare(sql: string): Statement
  exec(sql: string): void
  close(): void
}

/** The database file is unreadable as SQLite or fails its integrity check: the sandbox must not serve it. */
export class StoreDamagedError extends Error {
  override readonly name = 'StoreDamagedError'
  readonly recovery: string
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(
      `The local sandbox's database ${file} is damaged (${detail}). Nothing was served from it. ` +
        `Recover with \`svc sandbox restore <backup file>\`, or move ${file} (and its -wal/-shm files) aside and start afresh with \`svc sandbox reset\`.`,
    )
    this.recovery = `Restore a backup with \`svc sandbox restore <file>\`, or move ${file} aside and run \`svc sandbox reset\`.`
  }
}

/**
 * How much checking an open does. `full`: `PRAGMA quick_check`, O(database) (2.6 s at 1M
 * customers), for a file a process may have left mid-write. `header`: SQLite reads the header and
 * parses the schema, and the file must be as long as the header says: O(1), for every start after
 * a clean shutdown. `none`: the caller checks (an integrity_check of its own).
 */
export type OpenCheck = 'full' | 'header' | 'none'

/**
 * Opens the database file in WAL mode with synchronous=FULL (a commit is on disk when COMMIT
 * returns) and checks it as asked: a damaged file is refused, never served in part.
 */
export function openConnection(file: string, opts: {readonly?: boolean; check?: OpenCheck} = {}): Connection {
  const Database = createRequire(import.meta.url)('libsql') as new (
    path: string,
    o?: {readonly?: boolean},
  ) => Connection
  let db: Connection | undefined
  try {
    db = new Database(file, opts.readonly ? {readonly: true} : {})
    db.exec('PRAGMA busy_timeout = 5000')
    if (!opts.readonly) {
      db.exec('PRAGMA journal_mode = WAL')
      db.exec('PRAGMA synchronous = FULL')
      // 32 MiB of page cache instead of 2: at 1M customers the interior pages of the ~20 b-trees one
      // create touches (table, indexes, counters, side table) no longer fit in 2 MiB, and each miss
      // is a read from the OS. Pages are allocated as used, so a small sandbox stays small.
      db.exec('PRAGMA cache_size = -32768')
    }
    const check = opts.check ?? 'full'
    if (check === 'full' || (check === 'header' && !headerLooksWhole(db, file))) quickCheck(db, file)
    return db
  } catch (e) {
    db?.close()
    if (e instanceof StoreDamagedError) throw e
    const msg = (e as Error).message ?? String(e)
    if (
      existsSync(file) &&
      /malformed|not a database|corrupt|disk image|file is not|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(msg)
    )
      throw new StoreDamagedError(file, msg)
    throw e
  }
}

function quickCheck(db: Connection, file: string): void {
  const rows = db.prepare('PRAGMA quick_check').raw().all() as unknown as unknown[][]
  const verdict = rows.map((r) => String(r[0])).join('; ')
  if (verdict !== 'ok') throw new StoreDamagedError(file, verdict.slice(0, 300))
}

/**
 * The O(1) check: reading the schema makes SQLite read and validate the header and sqlite_master
 * (a foreign or garbled file throws here), and the file holds at least the pages the header
 * counts (a truncated copy does not). False sends the open to the full check.
 */
function headerLooksWhole(db: Connection, file: string): boolean {
  const one = (sql: string) => Number((db.prepare(sql).raw().get() as unknown as unknown[])[0])
  one('SELECT count(*) FROM sqlite_master')
  // With a WAL, pages may live there rather than in the file: only the file's own size is checked.
  if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) return true
  return !existsSync(file) || statSync(file).size >= one('PRAGMA page_count') * one('PRAGMA page_size')
}

/** A statement cache: each SQL text is prepared once per connection. */
export class Statements {
  private readonly cache = new Map<string, Statement>()
  constructor(private readonly db: Connection) {}

  /** A statement that changes rows (`run`). */
  write(sql: string): Statement {
    let s = this.cache.get(sql)
    if (!s) this.cache.set(sql, (s = this.db.prepare(sql)))
    return s
  }

  /** Rows of a query as arrays of column values, in the SELECT's order. */
  rows(sql: string, ...params: unknown[]): unknown[][] {
    return this.read(sql).all(...params) as unknown as unknown[][]
  }

  /** The first row of a query as an array of column values, or undefined. */
  row(sql: string, ...params: unknown[]): unknown[] | undefined {
    return this.read(sql).get(...params) as unknown as unknown[] | undefined
  }

  private read(sql: string): Statement {
    let s = this.cache.get(sql)
    if (!s) this.cache.set(sql, (s = this.db.prepare(sql).raw(true)))
    return s
  }
}
