import type {Db} from './db.js'

/** An outbox row: the event, where its delivery stands, and every attempt made. */
export interface StoredEvent {
  seq: number
  event: WebhookEvent
  /** pending: to be sent; delivered; dead: out of attempts; none: no endpoint was set when it happened. */
  delivery: 'pending' | 'delivered' | 'dead' | 'none'
  /** The endpoint configured when the event happened: where it is delivered. */
  endpoint?: string
  attempts: Array<{at: string; url: string; status?: number; error?: string; replay?: boolean}>
  /** When the next attempt is due (ms since the epoch), after a failed one. */
  nextAttemptAt?: number
}

export function maxEventSeq(db: Db): number {
  return Number(db.sql.row('SELECT max(seq) FROM events')?.[0] ?? 0)
}

/** The event first in line for delivery to `endpoint` (index events_delivery_endpoint_seq). */
export function oldestPendingEvent(db: Db, endpoint: string): StoredEvent | undefined {
  return db.docs<StoredEvent>(
    db.sql.rows("SELECT doc FROM events WHERE delivery = 'pending' AND endpoint = ? ORDER BY seq LIMIT 1", endpoint),
  )[0]
}

/**
 * Events in emission order, all or those of a type (`X` also matches `X.*`): `X.*` is the index
 * range ['X.', 'X/') ('/' follows '.'), where a LIKE would scan.
 */
export function eventsOfType(db: Db, type?: string): StoredEvent[] {
  const rows = type
    ? db.sql.rows(
        'SELECT doc FROM events WHERE type = ? OR (type >= ? AND type < ?) ORDER BY seq',
        type,
        `${type}.`,
        `${type}/`,
      )
    : db.sql.rows('SELECT doc FROM events ORDER BY seq')
  return db.docs<StoredEvent>(rows).map(normalize)
}

/**
 * One page of the event log in emission order (or newest first), after the event numbered
 * `afterSeq`: `limit + 1` rows at most are read, on the (seq) or (type, seq) index, so a page costs the
 * same however long the log grows.
 */
export function eventsPage(
  db: Db,
  opts: {type?: string; afterSeq?: number; limit: number; newestFirst?: boolean},
): StoredEvent[] {
  const dir = opts.newestFirst ? 'DESC' : 'ASC'
  const cmp = opts.newestFirst ? '<' : '>'
  const after = opts.afterSeq ?? (opts.newestFirst ? Number.MAX_SAFE_INTEGER : 0)
  const rows = opts.type
    ? db.sql.rows(
        `SELECT doc FROM events WHERE seq ${cmp} ? AND (type = ? OR (type >= ? AND type < ?)) ORDER BY seq ${dir} LIMIT ?`,
        after,
        opts.type,
        opts.type + '.',
        opts.type + '/',
        opts.limit + 1,
      )
    : db.sql.rows(`SELECT doc FROM events WHERE seq ${cmp} ? ORDER BY seq ${dir} LIMIT ?`, after, opts.limit + 1)
  return db.docs<StoredEvent>(rows).map(normalize)
}

/** Journal-era rows kept `deliveries` and `delivered`. */
function normalize(e: StoredEvent & {deliveries?: StoredEvent['attempts']; delivered?: boolean}): StoredEvent {
  if (e.delivery) return e
  return {seq: e.seq, event: e.event, attempts: e.deliveries ?? [], delivery: e.delivered ? 'delivered' : 'none'}
}

export interface WebhookEvent {
  id: string
  type: string
  timestamp: string
  data?: unknown
}

/** Events recorded after the one numbered `seq`, in emission order. */
export function eventsAfter(db: Db, seq: number): StoredEvent[] {
  return db.docs<StoredEvent>(db.sql.rows('SELECT doc FROM events WHERE seq > ? ORDER BY seq', seq))
}
