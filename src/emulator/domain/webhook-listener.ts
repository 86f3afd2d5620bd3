import type {SandboxContext} from '../context.js'

/** A `svc webhooks listen --register` registration: the listener's URL, its process, and the endpoint before it. */
export interface ListenerRegistration {
  url: string
  pid: number
  previous: string | null
}

const ROW = ['config', 'webhookListener'] as const

/** Whether process `pid` still runs on this machine (a signal 0 probes without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Points the sandbox at a listener (in the caller's unit) and remembers what to put back. When the
 * endpoint now is itself a listener whose process is gone (it was stopped with the sandbox down),
 * the endpoint to put back is the one before *that* listener: a dead URL is never handed back.
 */
export function registerListener(
  ctx: SandboxContext,
  url: string,
  pid: number,
  alive = processAlive,
): ListenerRegistration {
  const current = ctx.config().webhookEndpoint
  const earlier = ctx.db.get<ListenerRegistration>(...ROW)
  const previous = earlier && earlier.url === current && !alive(earlier.pid) ? earlier.previous : current
  const registration = {url, pid, previous}
  ctx.db.put(...ROW, registration)
  ctx.saveConfig({...ctx.config(), webhookEndpoint: url})
  if (url !== current) ctx.webhooks.emit('TEST', {})
  return registration
}

/**
 * Drops the registration of a listener whose process is gone (the sandbox was down when it stopped,
 * so it could not put the endpoint back): the endpoint returns to the one before it, and the events
 * pending for the dead listener are held for the next endpoint (in the caller's unit). True when it did.
 */
export function dropGoneListener(ctx: SandboxContext, alive = processAlive): boolean {
  const r = ctx.db.get<ListenerRegistration>(...ROW)
  if (!r) return false
  if (ctx.config().webhookEndpoint !== r.url) {
    ctx.db.del(...ROW) // the endpoint was changed since: the registration is over
    return false
  }
  if (alive(r.pid)) return false
  ctx.db.del(...ROW)
  ctx.saveConfig({...ctx.config(), webhookEndpoint: r.previous})
  ctx.log(`webhook listener ${r.url} (process ${r.pid}) is gone: endpoint back to ${r.previous ?? '(none)'}`)
  return true
}
