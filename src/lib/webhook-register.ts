import type {ApiClient} from './api/client.js'
import {ApiError, SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'

/** How the endpoint was left when a registered listener stopped: one line for the person, and the fix when it could not be put back. */
export interface Restored {
  said: string
  /** Set when the sandbox may still post to the dead listener. */
  fix?: string
}

/**
 * `webhooks listen --register` points the sandbox at a listener that lives only as long as svc does.
 * The endpoint before it is remembered, and put back when the listener stops (Ctrl-C, --max-events,
 * --timeout), unless someone else changed it meanwhile; when that fails, what is left is said with
 * the command that fixes it, instead of the sandbox posting to a dead port. The local sandbox is told
 * the listener's process too (POST /sandbox/webhooks/listener): it drops the registration itself once
 * that process is gone (the sandbox was down when it stopped), and never names a dead listener's URL
 * as the endpoint to put back.
 */
export async function registerListener(
  client: ApiClient,
  url: string,
  pid = process.pid,
): Promise<{restore(): Promise<Restored>}> {
  const previous = await registerWithSandbox(client, url, pid)
  const fix = previous ? `svc webhooks endpoint ${previous}` : 'svc webhooks endpoint --clear'
  return {
    async restore() {
      try {
        const now = await client.request<{webhookEndpoint?: string | null}>({method: 'GET', path: ['config']})
        if (now.body?.webhookEndpoint !== url)
          return {
            said: `The webhook endpoint was changed to ${now.body?.webhookEndpoint || '(none)'} meanwhile; left as it is`,
          }
        await client.request({method: 'PATCH', path: ['config'], body: {webhookEndpoint: previous ?? ''}})
        return {
          said: previous
            ? `The webhook endpoint is back to ${previous}`
            : 'The webhook endpoint is cleared again (none was set before)',
        }
      } catch (e) {
        return {
          said: `The sandbox still sends events to ${url}, where nothing listens now (${(e as Error).message})`,
          fix,
        }
      }
    },
  }
}

/** The endpoint before the listener: from the sandbox's registration, or (a Service without it) GET then PATCH /config. */
async function registerWithSandbox(client: ApiClient, url: string, pid: number): Promise<string | undefined> {
  try {
    const r = await client.request<{previous?: string | null}>({
      method: 'POST',
      path: ['sandbox', 'webhooks', 'listener'],
      body: {url, pid},
    })
    return r.body?.previous || undefined
  } catch (e) {
    if ((e as {status?: number}).status !== 404) throw e
  }
  const before = await client.request<{webhookEndpoint?: string | null}>({method: 'GET', path: ['config']})
  await client.request({method: 'PATCH', path: ['config'], body: {webhookEndpoint: url}})
  return before.body?.webhookEndpoint || undefined
}

/** Ctrl-C on a registered listener: exit 130 like any interrupt, saying where the endpoint was left. */
export function listenerInterrupted(restored: Restored | undefined): SvcError {
  return new SvcError({
    code: 'INTERRUPTED',
    exitCode: ExitCode.INTERRUPTED,
    message: restored ? `Interrupted. ${restored.said}` : 'Interrupted',
    hint: restored?.fix ? `Point it elsewhere with: ${restored.fix}` : undefined,
  })
}

/**
 * A replay the receiver did not take. The sandbox answers it with its own 400, which an error line
 * would show as "HTTP 400" as if the receiver had said so; this says what the receiver did instead:
 * nothing listens there (connection refused), or which status it answered.
 */
export function replayNotDelivered(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.code !== 'WEBHOOK_DELIVERY_ERROR') return err
  const d = (err.details ?? {}) as {url?: string; response_status?: number | null; eventId?: string}
  const refused = /ECONNREFUSED/.test(err.message)
  const what = d.eventId ?? 'The event'
  const message =
    typeof d.response_status === 'number'
      ? `${what} was not delivered: ${d.url} answered HTTP ${d.response_status}`
      : refused
        ? `${what} was not delivered: nothing listens at ${d.url} (connection refused)`
        : `${what} was not delivered to ${d.url ?? 'the endpoint'}: ${err.message.replace(/^.* failed: /, '')}`
  return new SvcError({
    code: err.code,
    exitCode: ExitCode.FAILED,
    message,
    details: err.details,
    hint: refused
      ? 'Start the receiver (or `svc webhooks listen --port <port>`) and replay again; the attempt is recorded on the event.'
      : 'The attempt is recorded on the event (`svc webhooks events list`); fix the receiver and replay again.',
  })
}
