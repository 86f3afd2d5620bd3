import type {Cursor, Paging} from '../paging.js'
import type {Db} from './db.js'

export interface ListQuery {
  table: string
  /** SQL conditions ANDed together, with `?` placeholders for `params`. */
  where: string[]
  params: unknown[]
  order?: 'asc' | 'desc'
  /** A totalCount known without counting (the `counts` table), for unfiltered lists. */
  total?: number
}

/**
 * One page of a table in `(created_at, id)` order, starting after the cursor: an index range scan
 * of `limit + 1` rows, so page N costs what page 1 costs. totalCount is an indexed count of the
 * filtered rows unless the caller knows it.
 */
export function keysetPage<T extends Cursor>(db: Db, q: ListQuery, paging: Paging): {rows: T[]; totalCount: number} {
  const dir = q.order === 'desc' ? 'DESC' : 'ASC'
  const where = [...q.where]
  const params = [...q.params]
  if (paging.after) {
    where.push(`(created_at, id) ${dir === 'ASC' ? '>' : '<'} (?, ?)`)
    params.push(paging.after.createdAt, paging.after.id)
  }
  const clause = (w: string[]) => (w.length ? ` WHERE ${w.join(' AND ')}` : '')
  const rows = db.docs<T>(db.sql.rows(`SELECT doc FROM "${q.table}"${clause(where)} ORDER BY created_at ${dir}, id ${dir} LIMIT ?`, ...params, paging.limit + 1))
  const totalCount = q.total ?? Number(db.sql.row(`SELECT count(*) FROM "${q.table}"${clause(q.where)}`, ...q.params)![0])
  return {rows, totalCount}
}

/** A running count kept by triggers (see `counts` in tables.ts). */
export function countOf(db: Db, name: string): number {
  return Number(db.sql.row('SELECT n FROM counts WHERE name = ?', name)?.[0] ?? 0)
}

/** Documents of `table` whose indexed `column` equals `value` (NULL matches IS NULL), oldest first. */
export function docsWhere<T>(db: Db, table: string, column: string, value: string | undefined | null): T[] {
  const sql =
    value === undefined || value === null
      ? `SELECT doc FROM "${table}" WHERE ${column} IS NULL ORDER BY created_at, id`
      : `SELECT doc FROM "${table}" WHERE ${column} = ? ORDER BY created_at, id`
  return db.docs<T>(value === undefined || value === null ? db.sql.rows(sql) : db.sql.rows(sql, value))
}
