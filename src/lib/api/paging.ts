import type {z} from 'zod'
import {pagedList} from '../schemas/paging.js'
import type {ApiClient} from './client.js'
import {apiRequest, type ApiRequest, type LazySchema, type Query} from './request.js'

export interface PageOptions {
  limit?: number
  cursor?: string
  all?: boolean
  /**
   * With `all`: each page's items are handed here as they arrive instead of being collected, so
   * memory stays flat however long the list is (the result's `data` is then empty).
   */
  onPage?: (items: unknown[]) => void
}

/** One page of a list answer, as pagedList reads it. */
export interface Page<T> {
  data: T[]
  hasMore: boolean
  totalCount?: number
  nextCursor?: string
}

/** A list endpoint's request: the filter is the query; `listPaged` adds limit and cursor page by page. */
export function listRequest<S extends z.ZodType>(path: string[], query: Query, item: S | LazySchema<S>, what: string) {
  const page = typeof item === 'function' ? async () => pagedList(await item()) : pagedList(item)
  return apiRequest({method: 'GET', path, query}, page, what) as ApiRequest<Page<z.infer<S>>>
}

/** Sends a list request for one page, or with `all` every page merged into one list (hasMore false), or streamed to `onPage`. */
export async function listPaged<T>(client: Pick<ApiClient, 'call'>, req: ApiRequest<Page<T>>, page: PageOptions) {
  let cursor = page.cursor
  const data: T[] = []
  for (;;) {
    const body = await client.call({
      ...req,
      query: {...req.query, limit: page.limit ?? (page.all ? 100 : undefined), cursor},
    })
    if (page.all && page.onPage) page.onPage(body.data)
    else data.push(...body.data)
    if (!page.all || !body.hasMore || !body.nextCursor) {
      return {
        data,
        hasMore: page.all ? false : body.hasMore,
        totalCount: body.totalCount,
        ...(body.nextCursor && !page.all ? {nextCursor: body.nextCursor} : {}),
      }
    }
    cursor = body.nextCursor
  }
}
