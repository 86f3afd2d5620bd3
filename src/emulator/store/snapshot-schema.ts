import {SCHEMA_VERSION} from './migrations.js'
import {openConnection, type Connection} from './sqlite.js'
import {COUNTS_TABLE_SQL, TABLES, createTableSql, type TableDef} from './tables.js'

/** One object of a snapshot that is not the sandbox's own: what it is, and why it is refused. */
export interface SnapshotProblem {
  /** e.g. `trigger "customers_count_customers_INSERT"`, `view "v"`, `table "extra"` */
  object: string
  message: string
}

/** A snapshot whose schema is not exactly the sandbox's: every object that is not, named (422 INVALID_SNAPSHOT). */
export class InvalidSnapshotError extends Error {
  override readonly name = 'InvalidSnapshotError'
  constructor(
    readonly file: string,
    readonly problems: SnapshotProblem[],
  ) {
    super(
      `${file} is not a snapshot of a sandbox (${problems.map((p) => `${p.object} ${p.message}`).join('; ')}); nothing was taken from it`,
    )
  }
}

interface Declared {
  type: string
  sql: string
}

let declaredCache: Map<string, Declared> | undefined

/**
 * Every table, index and trigger the current code creates, by name, with its SQL as SQLite stores
 * it (sqlite_master normalises the text: IF NOT EXISTS dropped): read from an in-memory database
 * made by the same statements a migration runs, so the comparison can never drift from the code.
 */
export function declaredSchema(): Map<string, Declared> {
  if (declaredCache) return declaredCache
  const conn = openConnection(':memory:', {check: 'none'})
  try {
    conn.exec(COUNTS_TABLE_SQL)
    for (const t of TABLES) for (const sql of createTableSql(t)) conn.exec(sql)
    const rows = conn
      .prepare('SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL')
      .raw()
      .all() as unknown as Array<[string, string, string]>
    declaredCache = new Map(rows.map(([type, name, sql]) => [name, {type, sql}]))
    return declaredCache
  } finally {
    conn.close()
  }
}

/** SQLite's own tables (statistics, AUTOINCREMENT counters): never copied, so never a risk. */
const SQLITE_INTERNAL = /^sqlite_(stat\d|sequence)$/

/**
 * Compares a snapshot's schema with the declared one; returns every object that differs.
 * - Views: the sandbox has none.
 * - Tables: only declared ones. A resource table's columns must be `id`, `doc` and declared lookup
 *   columns, each as declared (an older version may lack some: they are computed on import); a side
 *   table (counters) must have the declared SQL exactly.
 * - Triggers: only declared names, each with the declared SQL (trigger bodies have never changed
 *   between versions, only been added).
 * - Indexes: declared names with the declared SQL. An index the current code does not declare is
 *   refused in a snapshot of the current version; in an older one it is an index that version
 *   declared and a later one retired, and it is left behind (never copied) like everything else.
 * Nothing here is trusted anyway: the import copies documents only, into a schema the code makes.
 */
export function inspectSnapshotSchema(conn: Connection): SnapshotProblem[] {
  const version = Number((conn.prepare('PRAGMA user_version').raw().get() as unknown as unknown[])[0])
  const declared = declaredSchema()
  const resources = new Map(TABLES.map((t) => [t.name, t]))
  const problems: SnapshotProblem[] = []
  const refuse = (type: string, name: string, message: string) => problems.push({object: `${type} "${name}"`, message})
  const rows = conn.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').raw().all() as unknown as Array<
    [string, string, string, string | null]
  >
  const seen = new Set<string>()
  for (const [type, name, table, sql] of rows) {
    seen.add(name)
    if (type === 'index' && sql === null && name.startsWith('sqlite_autoindex_') && declared.has(table)) continue
    if (type === 'table' && SQLITE_INTERNAL.test(name)) continue
    const d = declared.get(name)
    const resource = resources.get(name)
    if (type === 'view') refuse(type, name, 'is not part of the sandbox schema (it has no views)')
    else if (type === 'table' && resource) {
      const bad = undeclaredColumns(resource, sql ?? '')
      if (bad) refuse(type, name, `has ${bad}, which the sandbox does not declare`)
    } else if (!d) {
      if (type !== 'index' || version >= SCHEMA_VERSION) refuse(type, name, 'is not part of the sandbox schema')
    } else if (d.type !== type || d.sql !== sql)
      refuse(type, name, `has the name of one of the sandbox's ${d.type}s but another definition`)
  }
  if (!seen.has('config')) refuse('table', 'config', 'is missing: this is not a sandbox database')
  return problems
}

/**
 * A resource table's SQL as SQLite stores it: `CREATE TABLE "name" (id TEXT PRIMARY KEY, doc TEXT
 * NOT NULL, <col> <TYPE>, ...)`, the columns a migration added appended the same way. Returns what
 * does not fit (a column, a constraint, WITHOUT ROWID ...), or undefined.
 */
function undeclaredColumns(t: TableDef, sql: string): string | undefined {
  const m = new RegExp(`^CREATE TABLE "${t.name}" \\((.*)\\)$`, 's').exec(sql)
  if (!m) return 'a definition other than the declared one'
  const [id, doc, ...rest] = m[1]!.split(', ')
  if (id !== 'id TEXT PRIMARY KEY' || doc !== 'doc TEXT NOT NULL') return 'other key or document columns'
  const allowed = new Set(t.columns.map((c) => `${c.name} ${c.type}`))
  const extra = rest.filter((c) => !allowed.has(c))
  return extra.length ? `column ${extra.map((c) => `"${c}"`).join(', ')}` : undefined
}
