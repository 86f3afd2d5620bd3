import {invalid} from '../http-error.js'
import type {Db} from '../store/db.js'
import {objectOfEvent} from '../store/event-object.js'
import {eventsPage, maxEventSeq, pendingBefore, type StoredEvent} from '../store/events.js'

/** The delivery states a filter may name; `failed` is the events out of attempts (stored as dead). */
const STATES: Record<string, StoredEvent['delivery']> = {
  pending: 'pending',
  failed: 'dead',
  dead: 'dead',
  delivered: 'delivered',
  none: 'none',
}

/** Events a page holds by default, and at most. */
const DEFAULT_LIMIT = 100
const MAX_LIMIT = 1000
const CURSOR_PREFIX = 'e1:'

const encode = (seq: number) => Buffer.from(CURSOR_PREFIX + seq).toString('base64url')
function decode(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const seq = Number(text.slice(CURSOR_PREFIX.length))
  return text.startsWith(CURSOR_PREFIX) && Number.isSafeInteger(seq) && seq >= 0 && encode(seq) === cursor
    ? seq
    : undefined
}

/**
 * GET /sandbox/events: the event log a page at a time, by cursor like every list (`limit` 1..1000,
 * default 100; `order=desc` for newest first), so a long-lived sandbox's log is never built into
 * one answer. Each event carries its delivery state and attempts.
 */
export function eventLogPage(db: Db, query: URLSearchParams, now: number) {
  const errors: Array<{field: string; message: string}> = []
  const limitRaw = query.get('limit')
  const limit = limitRaw === null ? DEFAULT_LIMIT : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    errors.push({field: 'limit', message: `must be an integer from 1 to ${MAX_LIMIT}`})
  const cursor = query.get('cursor')
  const afterSeq = cursor === null ? undefined : decode(cursor)
  if (cursor !== null && afterSeq === undefined)
    errors.push({field: 'cursor', message: 'is not a cursor this sandbox issued'})
  const order = query.get('order') ?? 'asc'
  if (order !== 'asc' && order !== 'desc') errors.push({field: 'order', message: 'must be asc or desc'})
  const type = query.get('type') ?? undefined
  if (type !== undefined && !/^[A-Za-z][A-Za-z0-9_.]*$/.test(type))
    errors.push({field: 'type', message: 'is not an event type (e.g. CUSTOMER.KYC_APPROVED)'})
  const object = query.get('object') ?? undefined
  if (object !== undefined && (!object || object.length > 200))
    errors.push({field: 'object', message: 'must be an object id (e.g. Customer:...), at most 200 characters'})
  const stateRaw = query.get('state') ?? undefined
  const state = stateRaw === undefined ? undefined : STATES[stateRaw]
  if (stateRaw !== undefined && !state)
    errors.push({field: 'state', message: 'must be one of pending, failed, delivered, none'})
  if (errors.length) throw invalid(errors)
  const rows = eventsPage(db, {type, object, state, afterSeq, limit, newestFirst: order === 'desc'})
  const page = rows.slice(0, limit)
  const hasMore = rows.length > limit
  return {
    data: page.map((e) => ({...e.event, delivery: deliveryView(db, e, now)})),
    hasMore,
    ...(hasMore ? {nextCursor: encode(page.at(-1)!.seq)} : {}),
    // After the newest event of the whole log now: where `--follow` polls from for what comes next.
    latestCursor: encode(maxEventSeq(db)),
  }
}

/**
 * An event's delivery as the log shows it: state and attempts, and for a pending event why it is
 * not out yet (`held`) and when it is tried next.
 */
function deliveryView(db: Db, e: StoredEvent, now: number) {
  const base = {state: e.delivery, attempts: e.attempts}
  if (e.delivery !== 'pending') return base
  const iso = (ms: number) => new Date(ms).toISOString()
  const next = e.nextAttemptAt !== undefined && e.nextAttemptAt > now ? iso(e.nextAttemptAt) : undefined
  const last = e.attempts.filter((a) => !a.replay).at(-1)
  // Behind an older event of its object that is itself waiting out a failure (one merely in flight goes in moments).
  const older = pendingBefore(db, objectOfEvent(e.event), e.seq)
  const before = older && (older.nextAttemptAt ?? 0) > now ? older : undefined
  const held = !e.endpoint
    ? 'held: no webhook endpoint is set; it is sent when one is'
    : before
      ? `held: behind ${before.event.id} of the same object, whose next attempt is at ${iso(before.nextAttemptAt!)}`
      : last && next
        ? `held: endpoint ${last.error ? `unreachable (${last.error})` : `answered ${last.status}`}, next attempt at ${next}`
        : undefined
  return {
    ...base,
    ...(e.endpoint ? {endpoint: e.endpoint} : {}),
    ...(next ? {nextAttemptAt: next} : {}),
    ...(held ? {held} : {}),
  }
}
