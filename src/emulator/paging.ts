import {invalid} from './http-error.js'

function readPaging(query: URLSearchParams) {
  const errors: Array<{field: string; message: string}> = []
  const limitRaw = query.get('limit')
  const limit = limitRaw === null ? 20 : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) errors.push({field: 'limit', message: 'must be an integer from 1 to 100'})
  const cursor = query.get('cursor')
  let offset = 0
  if (cursor !== null) {
    // Buffer ignores characters outside base64url, so garbage would decode to "" (offset 0): match the whole form.
    const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    offset = m ? Number(m[1]) : -1
    if (!m || Buffer.from(`o:${offset}`).toString('base64url') !== cursor) errors.push({field: 'cursor', message: 'is not a cursor this sandbox issued'})
  }
  return {limit, offset, errors}
}

/** Problems with `limit`/`cursor`, for a route that validates its other query fields first (pass to validate's `also`). */
export function pagingErrors(query: URLSearchParams): Array<{field: string; message: string}> {
  return readPaging(query).errors
}

/** `limit` (1..100, default 20) and an opaque `cursor` in; `data`, `hasMore`, `totalCount`, `nextCursor` out. */
export function paginate<T>(items: T[], query: URLSearchParams) {
  const {limit, offset, errors} = readPaging(query)
  if (errors.length) throw invalid(errors)
  const data = items.slice(offset, offset + limit)
  const hasMore = offset + limit < items.length
  return {
    data,
    hasMore,
    totalCount: items.length,
    ...(hasMore ? {nextCursor: Buffer.from(`o:${offset + limit}`).toString('base64url')} : {}),
  }
}
