import type {ApiRequest} from '../api/client.js'
import type {Context} from '../context.js'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'

/** The Service's list envelope (service-api.md "Pagination"). */
interface ListBody {
  data: unknown[]
  hasMore?: boolean
  nextCursor?: string
  totalCount?: number
}

/** Guards a server whose cursor never ends (the same cursor twice, or an absurd page count). */
const MAX_PAGES = 10_000

/**
 * `svc api GET <list> --paginate`: follows `nextCursor` while `hasMore`, as gh's `api --paginate`.
 * Without `line` the pages are merged into one document `{data, hasMore: false, totalCount}`;
 * with it (`--output ndjson`) each item is written as its page arrives, so memory stays flat, and
 * nothing is returned for --json to print again.
 */
export async function paginate(
  ctx: Context,
  req: ApiRequest,
  line?: (text: string) => void,
): Promise<ListBody | undefined> {
  const data: unknown[] = []
  const seen = new Set<string>()
  let cursor = req.query?.cursor as string | undefined
  let totalCount: number | undefined
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const res = await ctx.client.request({...req, query: {...req.query, ...(cursor ? {cursor} : {})}})
    const body = res.body as Partial<ListBody> | undefined
    if (!body || !Array.isArray(body.data)) {
      throw new SvcError({
        code: 'NOT_A_LIST',
        message: `${req.path.join('/')} did not answer a list ({data: [...]}), so there are no pages to follow`,
        exitCode: ExitCode.USAGE,
        hint: 'Drop --paginate for this path.',
      })
    }
    totalCount ??= body.totalCount
    if (line) for (const item of body.data) line(JSON.stringify(item) + '\n')
    else data.push(...body.data)
    if (!body.hasMore || !body.nextCursor)
      return line ? undefined : {data, hasMore: false, totalCount: totalCount ?? data.length}
    if (seen.has(body.nextCursor)) {
      throw new SvcError({
        code: 'PAGING_LOOP',
        message: `the server answered the cursor ${body.nextCursor} twice; stopped after ${pages + 1} pages`,
        exitCode: ExitCode.FAILED,
      })
    }
    seen.add(body.nextCursor)
    cursor = body.nextCursor
  }
  throw new SvcError({
    code: 'PAGING_LOOP',
    message: `stopped after ${MAX_PAGES} pages`,
    exitCode: ExitCode.FAILED,
  })
}
