import * as z from 'zod'
import type {ApiClient} from './client.js'
import {apiRequest, type ApiRequest} from './request.js'

const storedEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.unknown().optional(),
  delivery: z.unknown().optional(),
})
export type SandboxEvent = z.infer<typeof storedEvent>
const eventPage = z.looseObject({
  data: z.array(storedEvent),
  hasMore: z.boolean().optional(),
  nextCursor: z.string().optional(),
  latestCursor: z.string().optional(),
})

/** What the event log may be filtered by (GET /sandbox/events query). */
export type EventFilter = {
  type?: string
  object?: string
  state?: 'pending' | 'failed' | 'delivered'
}

/** A signed TEST event to the webhook endpoint now; `url` (local sandbox only) delivers it there instead. */
export function sendTestEvent(url?: string): ApiRequest {
  // The operation takes no body; only the local sandbox's --url extension sends one.
  return {method: 'POST', path: ['sandbox', 'webhooks', 'test'], body: url ? {url} : undefined}
}

/**
 * The sandbox's event log (GET /sandbox/events): the webhooks it emitted, oldest first, with their
 * delivery; every page is followed. With `last`, only the newest `last` events (one page, read
 * newest first), so a long-lived sandbox's log is not walked to show its tail.
 */
export function sandboxEventPage(query: EventFilter & {order?: 'desc'; limit: string; cursor?: string}) {
  return apiRequest({method: 'GET', path: ['sandbox', 'events'], query}, eventPage, 'event list')
}

export async function sandboxEvents(
  client: Pick<ApiClient, 'call'>,
  filter?: string | EventFilter,
  opts: {last?: number} = {},
): Promise<SandboxEvent[]> {
  const f = typeof filter === 'string' ? {type: filter} : (filter ?? {})
  if (opts.last !== undefined) {
    const page = await client.call(sandboxEventPage({...f, order: 'desc', limit: String(Math.min(opts.last, 1000))}))
    return page.data.reverse()
  }
  const all: SandboxEvent[] = []
  let cursor: string | undefined
  do {
    const page = await client.call(sandboxEventPage({...f, limit: '1000', cursor}))
    all.push(...page.data)
    cursor = page.hasMore ? page.nextCursor : undefined
  } while (cursor)
  return all
}

/**
 * Follows the event log: every event recorded from now on that passes `filter`, in order, polled
 * every `everyMs` until `until()` says stop. `seen` holds ids already shown (never shown twice).
 */
export async function followEvents(
  client: Pick<ApiClient, 'call'>,
  filter: EventFilter,
  opts: {
    seen: Set<string>
    onEvent: (e: SandboxEvent) => void
    until: () => boolean
    sleep: (ms: number) => Promise<void>
    everyMs?: number
  },
): Promise<void> {
  let cursor = (await client.call(sandboxEventPage({order: 'desc', limit: '1'}))).latestCursor
  while (!opts.until()) {
    const page = await client.call(sandboxEventPage({...filter, limit: '1000', cursor}))
    for (const e of page.data) {
      if (opts.seen.has(e.id)) continue
      opts.seen.add(e.id)
      opts.onEvent(e)
    }
    cursor = page.hasMore ? page.nextCursor : (page.latestCursor ?? cursor)
    if (!page.hasMore) await opts.sleep(opts.everyMs ?? 1_000)
  }
}
