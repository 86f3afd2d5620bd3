import {invalid} from './http-error.js'

/** Where the next page starts: the `(createdAt, id)` of the last item seen (keyset paging). */
export interface Cursor {
  createdAt: string
  id: string
}

/**
 * A cursor as the sandbox issues it: where the next page starts, and the totalCount the chain's
 * first page counted, so the pages after it do not count the filtered rows again.
 */
export interface After extends Cursor {
  total?: number
}

export interface Paging {
  limit: number
  after?: After
}

export interface Page<T> {
  data: T[]
  hasMore: boolean
  totalCount: number
  nextCursor?: string
}

// k1: [createdAt, id] (still accepted); k2: [createdAt, id, totalCount].
const PREFIX = 'k2:'
const PREFIX_V1 = 'k1:'

export function encodeCursor(c: After): string {
  return c.total === undefined
    ? Buffer.from(PREFIX_V1 + JSON.stringify([c.createdAt, c.id])).toString('base64url')
    : Buffer.from(PREFIX + JSON.stringify([c.createdAt, c.id, c.total])).toString('base64url')
}

function decodeCursor(cursor: string): After | undefined {
  // Buffer ignores characters outside base64url, so compare the round trip to refuse garbage.
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!text.startsWith(PREFIX) && !text.startsWith(PREFIX_V1)) return undefined
  try {
    const [createdAt, id, total] = JSON.parse(text.slice(PREFIX.length)) as unknown[]
    if (typeof createdAt !== 'string' || typeof id !== 'string') return undefined
    if (text.startsWith(PREFIX) && !(Number.isSafeInteger(total) && (total as number) >= 0)) return undefined
    const c: After = text.startsWith(PREFIX) ? {createdAt, id, total: total as number} : {createdAt, id}
    return encodeCursor(c) === cursor ? c : undefined
  } catch {
    return undefined
  }
}

function readPaging(query: URLSearchParams): Paging & {errors: Array<{field: string; message: string}>} {
  const errors: Array<{field: string; message: string}> = []
  const limitRaw = query.get('limit')
  const limit = limitRaw === null ? 20 : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    errors.push({field: 'limit', message: 'must be an integer from 1 to 100'})
  const raw = query.get('cursor')
  const after = raw === null ? undefined : decodeCursor(raw)
  if (raw !== null && !after) errors.push({field: 'cursor', message: 'is not a cursor this sandbox issued'})
  return {limit, after, errors}
}

/** Problems with `limit`/`cursor`, for a route that validates its other query fields first (pass to validate's `also`). */
export function pagingErrors(query: URLSearchParams): Array<{field: string; message: string}> {
  return readPaging(query).errors
}

/** `limit` (1..100, default 20) and the keyset cursor of a request; refuses bad ones (INVALID_INPUT). */
export function pagingOf(query: URLSearchParams): Paging {
  const {errors, ...paging} = readPaging(query)
  if (errors.length) throw invalid(errors)
  return paging
}

/** A page from up to `limit + 1` rows fetched after the cursor: the extra row only says there is more. */
export function pageFrom<T extends Cursor, U>(
  rows: T[],
  limit: number,
  totalCount: number,
  view: (row: T) => U,
): Page<U> {
  const hasMore = rows.length > limit
  const data = rows.slice(0, limit)
  const last = data.at(-1)
  return {
    data: data.map(view),
    hasMore,
    totalCount,
    ...(hasMore && last ? {nextCursor: encodeCursor({createdAt: last.createdAt, id: last.id, total: totalCount})} : {}),
  }
}

/**
 * Keyset paging over a small, already filtered and sorted list (the lists bounded by one customer
 * or account). Items are ordered by `(createdAt, id)` ascending, or descending with `order: 'desc'`.
 */
export function paginate<T extends Partial<Cursor>>(
  items: T[],
  query: URLSearchParams,
  order: 'asc' | 'desc' = 'asc',
): Page<T> {
  const {limit, after} = pagingOf(query)
  const dir = order === 'asc' ? 1 : -1
  const cmp = (t: T, c: Cursor) =>
    (t.createdAt ?? '') < c.createdAt
      ? -1
      : (t.createdAt ?? '') > c.createdAt
        ? 1
        : (t.id ?? '') < c.id
          ? -1
          : (t.id ?? '') > c.id
            ? 1
            : 0
  let start = 0
  if (after) {
    const at = items.findIndex((t) => t.createdAt === after.createdAt && t.id === after.id)
    start = at >= 0 ? at + 1 : items.findIndex((t) => dir * cmp(t, after) > 0)
  }
  const rest = start < 0 ? [] : items.slice(start, start + limit + 1)
  return pageFrom(rest as Array<T & Cursor>, limit, items.length, (t) => t)
}
