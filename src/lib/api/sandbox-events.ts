import * as z from 'zod'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'

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
})

/**
 * The sandbox's event log (GET /sandbox/events): the webhooks it emitted, oldest first, with their
 * delivery; every page is followed. With `last`, only the newest `last` events (one page, read
 * newest first), so a long-lived sandbox's log is not walked to show its tail.
 */
export function sandboxEventPage(query: {type?: string; order?: 'desc'; limit: string; cursor?: string}) {
  return apiRequest({method: 'GET', path: ['sandbox', 'events'], query}, eventPage, 'event list')
}

export async function sandboxEvents(
  client: Pick<ApiClient, 'call'>,
  type?: string,
  opts: {last?: number} = {},
): Promise<SandboxEvent[]> {
  if (opts.last !== undefined) {
    const page = await client.call(sandboxEventPage({type, order: 'desc', limit: String(Math.min(opts.last, 1000))}))
    return page.data.reverse()
  }
  const all: SandboxEvent[] = []
  let cursor: string | undefined
  do {
    const page = await client.call(sandboxEventPage({type, limit: '1000', cursor}))
    all.push(...page.data)
    cursor = page.hasMore ? page.nextCursor : undefined
  } while (cursor)
  return all
}
