/**
 * The vocabulary the sandbox's schema is declared in (tables/*.ts): a table is one API object kept
 * whole as JSON in `doc` plus the columns the routes look things up by, each derived from the
 * document on every write, so they can never disagree with it.
 */

export type Doc = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
type ColumnValue = string | number | null

export interface Column {
  name: string
  type: 'TEXT' | 'INTEGER'
  of: (doc: Doc) => ColumnValue | undefined
  /**
   * Set when the column is one top-level property of the document (`of` is `(d) => d[prop]`, or its
   * truthiness for a boolean one): a snapshot import can then compute it in SQL, for the whole
   * table in one statement (snapshot-bulk.ts), where the value's JSON type makes that exact.
   */
  prop?: string
}

export interface TableDef {
  /** Table name; also the collection name the domain uses (ctx.db.get('customers', id)). */
  name: string
  columns: Column[]
  /** Each index: its columns, and an optional partial-index condition. */
  indexes: Array<{columns: string[]; where?: string; unique?: boolean}>
  /** Keep parsed documents in memory (a tiny table read by nearly every request: config). */
  cached?: boolean
  /** The schema version (PRAGMA user_version) that added the table; 1 when absent. */
  since?: number
  /**
   * Running row counts kept by triggers in the `counts` table, so an unfiltered list's totalCount
   * costs one lookup instead of a scan: name, and the SQL condition over `row` (NEW or OLD).
   */
  counts?: Array<{name: string; when: (row: string) => string}>
  /**
   * Running counts per value of a column (`<name>:<value>`), so a list filtered by one
   * low-cardinality column (customerType, region, status, type) answers totalCount with one lookup.
   */
  groupCounts?: GroupCount[]
  /**
   * Running counts of rows per month, day, hour and minute of `created_at` (the `timeCounts`
   * table), so a created-at range (createdAfter/Before, startDate/endDate) answers totalCount by
   * summing at most ~150 buckets and counting the rows of two partial minutes by index.
   */
  rangeCounts?: RangeCount[]
  /** More schema that lives and dies with the table (side tables kept by triggers), created after it. */
  derived?: string[]
}

export interface GroupCount {
  name: string
  /** The column counted by; several make one counter per combination (`<a>|<b>`). */
  column: string | string[]
  /** Which rows count (SQL over `row`, NEW or OLD); all when absent. */
  when?: (row: string) => string
}

export interface RangeCount {
  name: string
  /** Which rows count (SQL over `row`, NEW or OLD); all when absent. */
  when?: (row: string) => string
}

/** A column of `of(doc)`, or of one top-level property of the document when given its name. */
export const text = (name: string, of: Column['of'] | string): Column =>
  typeof of === 'string' ? {name, type: 'TEXT', of: (d) => d[of], prop: of} : {name, type: 'TEXT', of}
export const int = (name: string, of: Column['of']): Column => ({name, type: 'INTEGER', of})
export const bool = (name: string, of: ((doc: Doc) => unknown) | string): Column =>
  typeof of === 'string' ? {...int(name, (d) => (d[of] ? 1 : 0)), prop: of} : int(name, (d) => (of(d) ? 1 : 0))
export const createdAt = text('created_at', 'createdAt')
export const keyOnly = (name: string): TableDef => ({name, columns: [], indexes: []})
