import {invalid} from '../http-error.js'
import type {Db} from '../store/db.js'
import {eventsPage} from '../store/events.js'

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
export function eventLogPage(db: Db, query: URLSearchParams) {
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
  if (errors.length) throw invalid(errors)
  const rows = eventsPage(db, {type, afterSeq, limit, newestFirst: order === 'desc'})
  const page = rows.slice(0, limit)
  const hasMore = rows.length > limit
  return {
    data: page.map((e) => ({...e.event, delivery: {state: e.delivery, attempts: e.attempts}})),
    hasMore,
    ...(hasMore ? {nextCursor: encode(page.at(-1)!.seq)} : {}),
  }
}
