// tools/list in pages (MCP's cursor paging): a client asks for the next page with the cursor the
// last one gave. 139 tools with their schemas are ~150 KB of JSON in one answer; pages keep each
// answer small enough for clients that cap a message, and tools/list stays a cheap first call.

/** Tools per tools/list page. */
export const TOOLS_PAGE_SIZE = 50

/** JSON-RPC's "invalid params": what the SDK answers for an error carrying this code. */
const INVALID_PARAMS = -32_602

/**
 * The page of `items` (named, in a stable order) that `cursor` starts, and the cursor of the next
 * one when there is more. A cursor names the last item of the page before (opaque to the client:
 * base64url), so a page never repeats or skips an item.
 */
export function pageOf<T extends {name: string}>(
  items: T[],
  cursor: string | undefined,
  size = TOOLS_PAGE_SIZE,
): {items: T[]; nextCursor?: string} {
  let start = 0
  if (cursor !== undefined) {
    const after = Buffer.from(cursor, 'base64url').toString('utf8')
    const at = cursor ? items.findIndex((t) => t.name === after) : -1
    if (at < 0)
      throw Object.assign(new Error(`Invalid cursor: ${JSON.stringify(cursor)} was not given by this server`), {
        code: INVALID_PARAMS,
      })
    start = at + 1
  }
  const page = items.slice(start, start + size)
  const more = start + size < items.length
  return more ? {items: page, nextCursor: Buffer.from(page.at(-1)!.name, 'utf8').toString('base64url')} : {items: page}
}
