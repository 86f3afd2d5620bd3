import {closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {cleanPartialCopies, startPartialCopy} from '../../lib/partial-copies.js'
import {DB_FILE} from './db.js'
import {SCHEMA_VERSION, migrate} from './migrations.js'
import {openConnection, StoreDamagedError} from './sqlite.js'
import {importSnapshot, type ImportResult} from './snapshot-import.js'
import {importOffThread} from './snapshot-offload.js'
import {InvalidSnapshotError, inspectSnapshotSchema} from './snapshot-schema.js'

/** The database file and what SQLite keeps beside it. */
export function databaseFiles(dataDir: string): string[] {
  const db = join(dataDir, DB_FILE)
  return [db, `${db}-wal`, `${db}-shm`]
}

/**
 * A consistent copy of a sandbox's database, whether or not a sandbox is serving from it: a
 * separate read transaction sees one committed state (WAL), and VACUUM INTO writes it out whole.
 */
export function backupDatabase(dataDir: string, file: string, opts: {force?: boolean} = {}): {tables: number} {
  const source = join(dataDir, DB_FILE)
  if (!existsSync(source)) throw new Error(`There is no sandbox database in ${dataDir}`)
  // The copy holds wallet recovery phrases: it is made in a 0600 file of its own (VACUUM INTO fills an
  // empty file), checked, and only then put in place, without replacing a file unless asked to.
  // What an earlier save that was killed left goes first (lib/partial-copies.ts).
  cleanPartialCopies(dataDir, file)
  const copy = startPartialCopy(dataDir, file)
  const tmp = copy.tmp
  try {
    closeSync(openSync(tmp, 'wx', 0o600))
    const conn = openConnection(source, {check: 'header'})
    try {
      conn.exec(`VACUUM INTO '${tmp.replaceAll("'", "''")}'`)
    } finally {
      conn.close()
    }
    const fd = openSync(tmp, 'r+')
    fsyncSync(fd)
    closeSync(fd)
    const checked = checkDatabase(tmp)
    if (opts.force) renameSync(tmp, file)
    else linkSync(tmp, file) // fails (EEXIST) rather than replace a file that appeared meanwhile
    return checked
  } finally {
    copy.done()
  }
}

/**
 * Opens a copy read-only in spirit and checks it: SQLite's own integrity check and our schema version.
 * `quick` runs `quick_check` (every page, record and b-tree, without matching each index against its
 * table): a fifth of the time, for the branch of a new sandbox that must take milliseconds.
 */
export function checkDatabase(file: string, opts: {quick?: boolean} = {}): {tables: number} {
  if (!existsSync(file)) throw new StoreDamagedError(file, 'no such file')
  const conn = openConnection(file, {readonly: true, check: 'header'})
  try {
    const pragma = opts.quick ? 'quick_check' : 'integrity_check'
    const integrity = conn.prepare(`PRAGMA ${pragma}`).raw().all() as unknown as unknown[][]
    const verdict = integrity.map((r) => String(r[0])).join('; ')
    if (verdict !== 'ok') throw new StoreDamagedError(file, verdict.slice(0, 300))
    const version = Number((conn.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])
    if (version < 1) throw new StoreDamagedError(file, 'not a sandbox database (no schema version)')
    if (version > SCHEMA_VERSION)
      throw new StoreDamagedError(
        file,
        `schema version ${version} is newer than this svc understands (${SCHEMA_VERSION})`,
      )
    const tables = Number(
      (conn.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").raw().get() as unknown as unknown[])[0],
    )
    return {tables}
  } finally {
    conn.close()
  }
}

/**
 * Replaces a stopped sandbox's database with a checked copy of `file`: its documents imported into
 * a database the current code makes (snapshot-import.ts; a schema object of its own is refused,
 * named), written beside the database and renamed over it; the database it replaces is kept as
 * sandbox.db.before-restore, so nothing is lost. A restore of one's own backup keeps its API and
 * agent tokens; a hand-over (`snapshot load`) drops them (`keepCredentials: false`).
 */
export async function restoreDatabase(
  dataDir: string,
  file: string,
  opts: {keepCredentials?: boolean} = {keepCredentials: true},
): Promise<{kept?: string} & ImportResult> {
  checkDatabase(file)
  mkdirSync(dataDir, {recursive: true, mode: 0o700})
  const target = join(dataDir, DB_FILE)
  const tmp = `${target}.restoring`
  const imported = await importSnapshot(file, tmp, {keepCredentials: opts.keepCredentials})
  let kept: string | undefined
  if (existsSync(target)) {
    // Fold the WAL into the old file so the kept copy is whole on its own.
    try {
      const old = openConnection(target, {check: 'none'})
      old.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      old.close()
    } catch {
      // a damaged database is kept as it is
    }
    kept = `${target}.before-restore`
    renameSync(target, kept)
  }
  for (const f of databaseFiles(dataDir).slice(1)) rmSync(f, {force: true})
  renameSync(tmp, target)
  return {...(kept ? {kept} : {}), ...imported}
}

/** `checkDatabase`, and the schema check a restore or load makes before it replaces anything (InvalidSnapshotError). */
export function checkSnapshot(file: string): {tables: number} {
  const checked = checkDatabase(file)
  const conn = openConnection(file, {readonly: true, check: 'none'})
  try {
    const problems = inspectSnapshotSchema(conn)
    if (problems.length) throw new InvalidSnapshotError(file, problems)
  } finally {
    conn.close()
  }
  return checked
}

/**
 * An empty database of the current schema in `dataDir` (after `svc sandbox reset`): the data dir's
 * credentials then sit beside a database again, which is how a start tells a reset from a lost file.
 */
export function freshDatabase(dataDir: string): void {
  const conn = openConnection(join(dataDir, DB_FILE))
  try {
    migrate(conn, dataDir, () => {})
  } finally {
    conn.close()
  }
}

/**
 * A new sandbox's database, branched from `source` (another sandbox's database, serving or not, or
 * a snapshot file): the source's documents imported, in one read transaction (one committed state
 * of a serving source, however it is written meanwhile), into <targetDir>/sandbox.db made by the
 * current code (snapshot-import.ts), on a worker thread (snapshot-offload.ts) so a shared server
 * serves its other sandboxes meanwhile. Its API and agent tokens are left behind. `pause` slices
 * the copy instead where no worker entry was built.
 */
export async function branchDatabase(
  source: string,
  targetDir: string,
  opts: {pause?: () => Promise<void>} = {},
): Promise<ImportResult> {
  mkdirSync(targetDir, {recursive: true, mode: 0o700})
  return importOffThread(source, join(targetDir, DB_FILE), {pause: opts.pause})
}
