import type {Db} from './db.js'

/**
 * The records the sandbox forgets after a while (docs/sandbox.md "Retention"), and the SQL that
 * forgets them: each prune deletes at most `limit` rows found by an index on the record's age
 * (idempotency_stored_at, events_settled_at), so one batch costs the same however large the table.
 * Live objects (customers, accounts, transactions ...) have no retention and no prune here.
 */

const EXPIRED_IDEMPOTENCY = 'SELECT rowid FROM idempotency WHERE stored_at < ? ORDER BY stored_at LIMIT ?'

/**
 * Settled events (delivered, dead: out of attempts, or never addressed: no endpoint) settled before
 * a time. A pending event has no settled_at and is never pruned. The newest event is kept whatever
 * its age: event numbers continue from it (webhooks.ts), so a cursor never sees a number twice.
 */
const EXPIRED_EVENTS =
  'SELECT rowid FROM events WHERE settled_at < ? AND seq < (SELECT max(seq) FROM events) ORDER BY settled_at LIMIT ?'

/** Idempotency records from before retention existed carry no time; they are stamped when first seen. */
const UNSTAMPED_IDEMPOTENCY = 'SELECT rowid FROM idempotency WHERE stored_at IS NULL LIMIT ?'

/** Every statement retention runs, by name: each is checked to use an index (test/unit/store/retention.test.ts). */
export const RETENTION_SQL = {
  pruneIdempotency: `DELETE FROM idempotency WHERE rowid IN (${EXPIRED_IDEMPOTENCY})`,
  pruneEvents: `DELETE FROM events WHERE rowid IN (${EXPIRED_EVENTS})`,
  stampIdempotency: `UPDATE idempotency SET doc = json_set(doc, '$.at', ?), stored_at = ? WHERE rowid IN (${UNSTAMPED_IDEMPOTENCY})`,
  unstamped: UNSTAMPED_IDEMPOTENCY,
  oldestIdempotency: 'SELECT min(stored_at) FROM idempotency',
  // The two oldest settled, by the settled_at index: one of them is not the newest event (which is kept).
  oldestEvents: 'SELECT settled_at, seq FROM events WHERE settled_at IS NOT NULL ORDER BY settled_at LIMIT 2',
  newestEvent: 'SELECT max(seq) FROM events',
} as const

/** Deletes up to `limit` idempotency records stored before `before` (ms since the epoch); how many went. */
export function pruneIdempotency(db: Db, before: number, limit: number): number {
  return db.sql.write(RETENTION_SQL.pruneIdempotency).run(before, limit).changes
}

/** Deletes up to `limit` settled events (their attempts are inside them) settled before `before`; how many went. */
export function pruneEvents(db: Db, before: number, limit: number): number {
  return db.sql.write(RETENTION_SQL.pruneEvents).run(before, limit).changes
}

/**
 * Gives up to `limit` idempotency records without a time the time `now`: they then expire one
 * retention from now, never sooner (a key used just before an upgrade still replays). How many.
 */
export function stampIdempotency(db: Db, now: number, limit: number): number {
  return db.sql.write(RETENTION_SQL.stampIdempotency).run(now, now, limit).changes
}

/** Whether some idempotency record still has no time (it is stamped before it can expire). */
export function hasUnstamped(db: Db): boolean {
  return db.sql.rows(RETENTION_SQL.unstamped, 1).length > 0
}

/** When the oldest retained record of each kind was stored or settled (ms), if there is one. */
export function oldestRetained(db: Db): {idempotency?: number; events?: number} {
  const first = (sql: string) => {
    const v = db.sql.row(sql)?.[0]
    return v === null || v === undefined ? undefined : Number(v)
  }
  const idempotency = first(RETENTION_SQL.oldestIdempotency)
  const newest = first(RETENTION_SQL.newestEvent)
  const oldest = db.sql.rows(RETENTION_SQL.oldestEvents).find((r) => Number(r[1]) !== newest)
  const events = oldest ? Number(oldest[0]) : undefined
  return {...(idempotency === undefined ? {} : {idempotency}), ...(events === undefined ? {} : {events})}
}
