import type {z} from 'zod'
import {pagedList} from '../schemas/paging.js'
import type {ApiClient} from './client.js'

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

/** Fetches one page, or with `all` every page merged into one list (hasMore false), or streamed to `onPage`. */
export async function listPaged<S extends z.ZodType>(
  client: ApiClient,
  path: string[],
  query: Record<string, string | number | boolean | undefined>,
  item: S,
  page: PageOptions,
  what: string,
) {
  const schema = pagedList(item)
  let cursor = page.cursor
  const data: Array<z.infer<S>> = []
  for (;;) {
    const res = await client.request({
      method: 'GET',
      path,
      query: {...query, limit: page.limit ?? (page.all ? 100 : undefined), cursor},
    })
    const body = client.parse(schema, res.body, what)
    if (page.all && page.onPage) page.onPage(body.data as unknown[])
    else data.push(...(body.data as Array<z.infer<S>>))
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
