import type {Db} from './db.js'

/**
 * The records the sandbox forgets after a while (docs/sandbox.md "Retention"), and the SQL that
 * forgets them: each prune deletes at most `limit` rows found by an index on the record's age
 * (idempotency_stored_at, events_settled_at), so one batch costs the same however large the table.
 * Live objects (customers, accounts, transactions ...) have no retention and no prune here.
 */

/** The oldest `limit` idempotency records stored before `before` (ms since the epoch). */
export const EXPIRED_IDEMPOTENCY_SQL = 'SELECT id FROM idempotency WHERE stored_at < ? ORDER BY stored_at LIMIT ?'

/**
 * The oldest `limit` events settled before `before`: delivered, dead (out of attempts) or never
 * addressed (no endpoint). A pending event has no settled_at and is never pruned. The newest event
 * is kept whatever its age: event numbers continue from it (webhooks.ts), so cursors never repeat.
 */
export const EXPIRED_EVENTS_SQL =
  'SELECT id FROM events WHERE settled_at < ? AND seq < (SELECT max(seq) FROM events) ORDER BY settled_at LIMIT ?'

/** Idempotency records from before retention existed carry no time; they are stamped when first seen. */
export const UNSTAMPED_IDEMPOTENCY_SQL = 'SELECT id FROM idempotency WHERE stored_at IS NULL LIMIT ?'

/** Deletes up to `limit` idempotency records stored before `before`; how many went. */
export function pruneIdempotency(db: Db, before: number, limit: number): number {
  return deleteIn(db, 'idempotency', EXPIRED_IDEMPOTENCY_SQL, before, limit)
}

/** Deletes up to `limit` settled events (their attempts are inside them) settled before `before`; how many went. */
export function pruneEvents(db: Db, before: number, limit: number): number {
  return deleteIn(db, 'events', EXPIRED_EVENTS_SQL, before, limit)
}

/**
 * Gives up to `limit` idempotency records without a time the time `now`: they then expire one
 * retention from now, never sooner (a key used just before an upgrade still replays). How many.
 */
export function stampIdempotency(db: Db, now: number, limit: number): number {
  return db.sql
    .write(
      `UPDATE idempotency SET doc = json_set(doc, '$.at', ?), stored_at = ? WHERE id IN (${UNSTAMPED_IDEMPOTENCY_SQL})`,
    )
    .run(now, now, limit).changes
}

/** When the oldest retained record of each kind was stored or settled (ms), if there is one. */
export function oldestRetained(db: Db): {idempotency?: number; events?: number} {
  const first = (sql: string) => {
    const v = db.sql.row(sql)?.[0]
    return v === null || v === undefined ? undefined : Number(v)
  }
  const idempotency = first('SELECT min(stored_at) FROM idempotency')
  const events = first(
    'SELECT settled_at FROM events WHERE settled_at IS NOT NULL AND seq < (SELECT max(seq) FROM events) ORDER BY settled_at LIMIT 1',
  )
  return {...(idempotency === undefined ? {} : {idempotency}), ...(events === undefined ? {} : {events})}
}

/** Whether some idempotency record still has no time (it is stamped before it can expire). */
export function hasUnstamped(db: Db): boolean {
  return db.sql.rows(UNSTAMPED_IDEMPOTENCY_SQL, 1).length > 0
}

function deleteIn(db: Db, table: string, select: string, before: number, limit: number): number {
  return db.sql.write(`DELETE FROM "${table}" WHERE id IN (${select})`).run(before, limit).changes
}
