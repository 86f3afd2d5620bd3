import type {PageOptions} from '../api/paging.js'
import type {Output} from './output.js'
import {ListWriter, type Column, type ListView} from './table.js'

export interface ListPage<T> {
  data: T[]
  hasMore: boolean
  totalCount?: number
  nextCursor?: string
}

/**
 * A list command's body. One page (--limit/--cursor) is fetched and rendered as before and returned
 * for --json. With --all every page is written as it arrives, so memory stays flat however many
 * items there are: --json writes the same `{data, hasMore, totalCount}` document item by item,
 * ndjson/csv/tab-separated output row by row; only the fitted terminal table, which must see every
 * row to size its columns, waits for the last page; so does --query, whose expression needs the whole
 * document. Returns undefined when it wrote the result itself.
 */
export async function showList<T>(
  out: Output,
  view: ListView,
  columns: Array<Column<T>>,
  page: PageOptions,
  load: (page: PageOptions) => Promise<ListPage<T>>,
  render: (list: ListPage<T>) => Promise<void>,
): Promise<ListPage<T> | undefined> {
  if (!page.all || (out.json && out.queried)) {
    const list = await load(page)
    await render(list)
    return list
  }
  if (out.json || view.format === 'json') {
    let count = 0
    out.write('{"data":[')
    const list = await load({
      ...page,
      onPage: (items) => {
        for (const item of items) out.write((count++ ? ',\n' : '\n') + JSON.stringify(item))
      },
    })
    out.write(`\n],"hasMore":false,"totalCount":${list.totalCount ?? count}}\n`)
    return undefined
  }
  const writer = new ListWriter(out, columns, view)
  await load({...page, onPage: (items) => writer.rows(items as T[])})
  await writer.end()
  return undefined
}
