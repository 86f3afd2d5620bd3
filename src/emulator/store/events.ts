import type {Db} from './db.js'

/** An outbox row: the event, where its delivery stands, and every attempt made. */
export interface StoredEvent {
  seq: number
  event: WebhookEvent
  /**
   * pending: to be sent (to the endpoint configured now; held while none is); delivered; dead: out of
   * attempts; none: no endpoint was set when it happened.
   */
  delivery: 'pending' | 'delivered' | 'dead' | 'none'
  /** Where it is (or was) delivered: a pending event follows the configured endpoint when it changes. */
  endpoint?: string
  attempts: Array<{at: string; url: string; status?: number; error?: string; replay?: boolean}>
  /** When the next attempt is due (ms since the epoch), after a failed one. */
  nextAttemptAt?: number
}

export function maxEventSeq(db: Db): number {
  return Number(db.sql.row('SELECT max(seq) FROM events')?.[0] ?? 0)
}

/**
 * The first pending event of each object for `endpoint`, oldest first: what may be sent now, since
 * delivery keeps order only within an object (index on delivery, endpoint, object, seq).
 */
export function pendingHeads(db: Db, endpoint: string): StoredEvent[] {
  return db.docs<StoredEvent>(
    db.sql.rows(
      `SELECT doc FROM events WHERE seq IN (SELECT min(seq) FROM events WHERE delivery = 'pending' AND endpoint = ?
        GROUP BY object) ORDER BY seq`,
      endpoint,
    ),
  )
}

/** The first pending event of one object for `endpoint`. */
export function pendingHeadOf(db: Db, endpoint: string, object: string): StoredEvent | undefined {
  return db.docs<StoredEvent>(
    db.sql.rows(
      "SELECT doc FROM events WHERE delivery = 'pending' AND endpoint = ? AND object = ? ORDER BY seq LIMIT 1",
      endpoint,
      object,
    ),
  )[0]
}

/** Whether `object` has a pending event numbered above `seq` (index on object, seq). */
export function pendingAfter(db: Db, object: string, seq: number): boolean {
  return Boolean(
    db.sql.row("SELECT 1 FROM events WHERE object = ? AND seq > ? AND delivery = 'pending' LIMIT 1", object, seq),
  )
}

/** The oldest pending event of `object` before the one numbered `seq` (what holds it back), if any. */
export function pendingBefore(db: Db, object: string, seq: number): StoredEvent | undefined {
  return db.docs<StoredEvent>(
    db.sql.rows(
      "SELECT doc FROM events WHERE object = ? AND seq < ? AND delivery = 'pending' ORDER BY seq LIMIT 1",
      object,
      seq,
    ),
  )[0]
}

/** Every pending event, whatever endpoint it was addressed to (the endpoint changed: they follow it). */
export function pendingEvents(db: Db): StoredEvent[] {
  return db.docs<StoredEvent>(db.sql.rows("SELECT doc FROM events WHERE delivery = 'pending' ORDER BY seq"))
}

/** How many events wait for delivery, and the oldest of them (svc doctor, the trigger's "held" line). */
export function pendingSummary(db: Db): {count: number; oldest?: StoredEvent} {
  const count = Number(db.sql.row("SELECT count(*) FROM events WHERE delivery = 'pending'")?.[0] ?? 0)
  const oldest = count
    ? db.docs<StoredEvent>(db.sql.rows("SELECT doc FROM events WHERE delivery = 'pending' ORDER BY seq LIMIT 1"))[0]
    : undefined
  return {count, ...(oldest ? {oldest} : {})}
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
  opts: {
    type?: string
    object?: string
    state?: StoredEvent['delivery']
    afterSeq?: number
    limit: number
    newestFirst?: boolean
  },
): StoredEvent[] {
  const dir = opts.newestFirst ? 'DESC' : 'ASC'
  const cmp = opts.newestFirst ? '<' : '>'
  const after = opts.afterSeq ?? (opts.newestFirst ? Number.MAX_SAFE_INTEGER : 0)
  const where = [`seq ${cmp} ?`]
  const args: unknown[] = [after]
  if (opts.type) {
    where.push('(type = ? OR (type >= ? AND type < ?))')
    args.push(opts.type, opts.type + '.', opts.type + '/')
  }
  // An object's events are few: the (object, seq) index finds them; a state alone walks seq.
  if (opts.object) (where.push('object = ?'), args.push(opts.object))
  if (opts.state) (where.push('delivery = ?'), args.push(opts.state))
  const rows = db.sql.rows(
    `SELECT doc FROM events WHERE ${where.join(' AND ')} ORDER BY seq ${dir} LIMIT ?`,
    ...args,
    opts.limit + 1,
  )
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
