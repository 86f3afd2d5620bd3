import type {Cursor, Paging} from '../paging.js'
import type {Db} from './db.js'
import {RANGE_LEVELS} from './tables.js'

export interface ListQuery {
  table: string
  /** SQL conditions ANDed together, with `?` placeholders for `params`. */
  where: string[]
  params: unknown[]
  order?: 'asc' | 'desc'
  /** A totalCount known without counting (the `counts` table), for unfiltered lists. */
  total?: number
  /**
   * The FROM clause when the keyset order comes from another table (a side table joined to the
   * documents), with the columns of that order and the document; the table itself by default.
   */
  from?: string
  key?: {createdAt: string; id: string}
  doc?: string
}

/**
 * One page of a table in `(created_at, id)` order, starting after the cursor: an index range scan
 * of `limit + 1` rows, so page N costs what page 1 costs. totalCount is, in order: a running
 * counter the caller read (`total`), the count the chain's first page made (carried in the
 * cursor), or an indexed count of the filtered rows (first page only).
 */
export function keysetPage<T extends Cursor>(db: Db, q: ListQuery, paging: Paging): {rows: T[]; totalCount: number} {
  const dir = q.order === 'desc' ? 'DESC' : 'ASC'
  const from = q.from ?? `"${q.table}"`
  const key = q.key ?? {createdAt: 'created_at', id: 'id'}
  const where = [...q.where]
  const params = [...q.params]
  if (paging.after) {
    where.push(`(${key.createdAt}, ${key.id}) ${dir === 'ASC' ? '>' : '<'} (?, ?)`)
    params.push(paging.after.createdAt, paging.after.id)
  }
  const clause = (w: string[]) => (w.length ? ` WHERE ${w.join(' AND ')}` : '')
  const rows = db.docs<T>(
    db.sql.rows(
      `SELECT ${q.doc ?? 'doc'} FROM ${from}${clause(where)} ORDER BY ${key.createdAt} ${dir}, ${key.id} ${dir} LIMIT ?`,
      ...params,
      paging.limit + 1,
    ),
  )
  const totalCount =
    q.total ??
    paging.after?.total ??
    Number(db.sql.row(`SELECT count(*) FROM ${from}${clause(q.where)}`, ...q.params)![0])
  return {rows, totalCount}
}

/** A running count kept by triggers (see `counts` and `groupCounts` in tables.ts). */
export function countOf(db: Db, name: string): number {
  return Number(db.sql.row('SELECT n FROM counts WHERE name = ?', name)?.[0] ?? 0)
}

/** The running count of rows whose column holds `value` (a `groupCounts` counter). */
export function groupCountOf(db: Db, name: string, value: string): number {
  return countOf(db, `${name}:${value}`)
}

/**
 * How many rows of a `rangeCounts` counter have `from <= created_at <= to` (either bound may be
 * absent): whole months, days, hours and minutes from the `timeCounts` buckets, and the rows of
 * the two partial minutes at the edges by an index range of `table` (`scope`: the counter's
 * condition as SQL over the table, e.g. `is_deleted = 0`). O(buckets + rows in a minute), not
 * O(rows in the range).
 */
export function rangeCountOf(
  db: Db,
  counter: {name: string; table: string; scope?: string},
  from: string | undefined,
  to: string | undefined,
): number {
  const upTo = to === undefined ? countOf(db, counter.name) : before(db, counter, to, true)
  // An empty window (from after to) comes out negative: none match.
  return from === undefined ? upTo : Math.max(0, upTo - before(db, counter, from, false))
}

/** Rows whose created_at sorts before `x` (or equals it, when `inclusive`). */
function before(db: Db, c: {name: string; table: string; scope?: string}, x: string, inclusive: boolean): number {
  // created_at < x  <=>  its month < x's month, or the same month and an earlier day, ... or the
  // same minute and created_at < x: true of any two strings, so exact whatever the format.
  const sums: string[] = []
  const params: unknown[] = []
  RANGE_LEVELS.forEach((l, i) => {
    const upper = x.slice(0, l)
    if (i === 0) (sums.push('name = ? AND bucket < ?'), params.push(`${c.name}/${l}`, upper))
    else
      (sums.push('name = ? AND bucket >= ? AND bucket < ?'),
        params.push(`${c.name}/${l}`, x.slice(0, RANGE_LEVELS[i - 1]), upper))
  })
  const buckets = Number(
    db.sql.row(
      `SELECT ${sums.map((w) => `coalesce((SELECT sum(n) FROM timeCounts WHERE ${w}), 0)`).join(' + ')}`,
      ...params,
    )![0],
  )
  const edge = Number(
    db.sql.row(
      `SELECT count(*) FROM "${c.table}" WHERE ${c.scope ? `${c.scope} AND ` : ''}created_at >= ? AND created_at ${inclusive ? '<=' : '<'} ?`,
      x.slice(0, RANGE_LEVELS.at(-1)),
      x,
    )![0],
  )
  return buckets + edge
}

/** Documents of `table` whose indexed `column` equals `value` (NULL matches IS NULL), oldest first. */
export function docsWhere<T>(db: Db, table: string, column: string, value: string | undefined | null): T[] {
  const sql =
    value === undefined || value === null
      ? `SELECT doc FROM "${table}" WHERE ${column} IS NULL ORDER BY created_at, id`
      : `SELECT doc FROM "${table}" WHERE ${column} = ? ORDER BY created_at, id`
  return db.docs<T>(value === undefined || value === null ? db.sql.rows(sql) : db.sql.rows(sql, value))
}
