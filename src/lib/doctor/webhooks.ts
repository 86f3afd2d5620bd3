import type {Context} from '../context.js'
import type {Check} from './check.js'

interface PendingEvent {
  id: string
  delivery?: {held?: string; attempts?: Array<{at?: string; error?: string; status?: number}>}
}

/**
 * The local sandbox's webhook backlog: a warning when events wait for an endpoint that does not
 * answer (a listener that is gone, an app that is down), with what to do; read-only.
 */
export async function webhookCheck(ctx: Context, reachable: boolean): Promise<Check> {
  const name = 'webhooks'
  let environment
  try {
    environment = ctx.profile.environment
  } catch {
    return {name, status: 'skipped', detail: 'no usable profile'}
  }
  if (environment !== 'local' || !reachable)
    return {name, status: 'skipped', detail: reachable ? 'not a local sandbox' : 'the sandbox is not reachable'}
  try {
    const config = await ctx.client.request<{webhookEndpoint?: string}>({method: 'GET', path: ['config']})
    const endpoint = config.body?.webhookEndpoint
    const page = await ctx.client.request<{data: PendingEvent[]; hasMore?: boolean}>({
      method: 'GET',
      path: ['sandbox', 'events'],
      query: {state: 'pending', limit: '1000'},
    })
    const pending = page.body?.data ?? []
    const count = `${pending.length}${page.body?.hasMore ? '+' : ''}`
    if (!pending.length)
      return {name, status: 'ok', detail: endpoint ? `endpoint ${endpoint}; nothing pending` : 'no endpoint set'}
    const failing = pending.filter((e) => e.delivery?.attempts?.some((a) => a.error || (a.status ?? 200) >= 300))
    if (!endpoint || failing.length)
      return {
        name,
        status: 'warn',
        detail: endpoint
          ? `${count} event(s) pending for ${endpoint}, which is not accepting them (${pending[0]!.delivery?.held ?? lastError(failing[0]!)})`
          : `${count} event(s) held: no endpoint is set`,
        hint: 'Start your receiver, or point the sandbox at a live one: `svc webhooks listen --register` or `svc webhooks endpoint <url>`. `svc webhooks events list --state pending` lists them.',
      }
    return {name, status: 'ok', detail: `endpoint ${endpoint}; ${count} event(s) on their way`}
  } catch (e) {
    return {name, status: 'warn', detail: `could not read the event log: ${(e as Error).message}`}
  }
}

function lastError(e: PendingEvent): string {
  const a = e.delivery?.attempts?.at(-1)
  return a?.error ?? `answered ${a?.status}`
}
