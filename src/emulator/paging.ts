import {invalid} from './http-error.js'

/** `limit` (1..100, default 20) and an opaque `cursor` in; `data`, `hasMore`, `totalCount`, `nextCursor` out. */
export function paginate<T>(items: T[], query: URLSearchParams) {
  const errors: Array<{field: string; message: string}> = []
  const limitRaw = query.get('limit')
  const limit = limitRaw === null ? 20 : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) errors.push({field: 'limit', message: 'must be an integer from 1 to 100'})
  const cursor = query.get('cursor')
  let offset = 0
  if (cursor !== null) {
    offset = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, ''))
    if (!Number.isInteger(offset) || offset < 0) errors.push({field: 'cursor', message: 'is not a cursor this sandbox issued'})
  }
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
