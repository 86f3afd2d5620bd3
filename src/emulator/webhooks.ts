import {randomUUID, type KeyObject} from 'node:crypto'
import type {PlatformConfig, SandboxSettings} from './settings.js'
import type {Db} from './store/db.js'
import {signBody} from './webhook-key.js'
import {postWebhook} from './webhook-post.js'
import {eventsOfType, maxEventSeq, oldestPendingEvent, type StoredEvent, type WebhookEvent} from './store/events.js'

export type {StoredEvent, WebhookEvent}

const MAX_ATTEMPTS = 12

/** What the outbox needs of the sandbox: a narrow slice, so it sits below the request context. */
export interface OutboxHost {
  readonly db: Db
  now(): number
  iso(ms?: number): string
  /** Whether time passes by itself: a retry due later is left to an advance when the clock is frozen. */
  readonly clock: {ticking(): boolean}
  config(): PlatformConfig
  settings(): SandboxSettings
  log(line: string): void
}

/**
 * A durable webhook outbox. An event is a row of the events table written in the same unit as the
 * state change that causes it, so it exists exactly when that change does; it is addressed to the
 * endpoint configured at that moment. One deliverer sends the events pending for the configured
 * endpoint strictly in `seq` order: a failing event holds back
 * the ones after it, retried with exponential backoff, until it succeeds or runs out of attempts
 * and is marked dead (GET /sandbox/events shows each event's attempts). Delivery is at least once:
 * an event is marked delivered only after the endpoint answered, and pending events resume after
 * a restart, kill -9 included. Only committed events are sent.
 */
export class Webhooks {
  private seq: number
  private committedSeq: number
  private pumping = false
  private again = false
  private stopped = false
  private timer?: NodeJS.Timeout
  private idleWaiters: Array<() => void> = []

  constructor(
    private readonly host: OutboxHost,
    private readonly key: KeyObject,
  ) {
    this.seq = maxEventSeq(host.db)
    this.committedSeq = this.seq
    host.db.onCommit(() => {
      this.committedSeq = this.seq
      this.kick()
    })
  }

  /** Starts delivering what is pending (called once the emulator is up). */
  start(): void {
    this.kick()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  /** Records an event in the current unit; it is delivered once that unit commits. */
  emit(type: string, data?: unknown): WebhookEvent {
    const event: WebhookEvent = {
      id: `Webhook:${randomUUID()}`,
      type,
      timestamp: this.host.iso(),
      ...(data === undefined ? {} : {data}),
    }
    const endpoint = this.host.config().webhookEndpoint
    const stored: StoredEvent = {
      seq: ++this.seq,
      event,
      delivery: endpoint ? 'pending' : 'none',
      ...(endpoint ? {endpoint} : {}),
      attempts: [],
    }
    this.host.db.put('events', event.id, stored)
    this.host.log(`webhook ${type} ${event.id}`)
    // Outside a unit the write has committed on its own already.
    if (!this.host.db.inUnit) {
      this.committedSeq = this.seq
      this.kick()
    }
    return event
  }

  list(type?: string): WebhookEvent[] {
    return this.stored(type).map((e) => e.event)
  }

  /** Events with their delivery state and attempts, in emission order. */
  stored(type?: string): StoredEvent[] {
    return eventsOfType(this.host.db, type)
  }

  /** Sends one event now and reports what the endpoint answered (POST /sandbox/webhooks/test). */
  async deliverNow(event: WebhookEvent, url: string): Promise<{status: number; body: string}> {
    const body = JSON.stringify(event)
    return postWebhook(url, body, {'content-type': 'application/json', 'x-service-signature': signBody(body, this.key)})
  }

  /**
   * Re-delivers a stored event now, to `url` or the configured endpoint: the identical body (the
   * stored envelope, serialised as on its first delivery), freshly signed. Recorded among the
   * event's attempts as a replay (replays do not count against its delivery attempts).
   */
  async replay(
    eventId: string,
    url: string,
  ): Promise<{event: WebhookEvent; status?: number; body?: string; error?: string}> {
    const stored = this.host.db.get<StoredEvent>('events', eventId)
    if (!stored) throw Object.assign(new Error(`${eventId} not found`), {notFound: true})
    let result: {status?: number; body?: string; error?: string}
    try {
      result = await this.deliverNow(stored.event, url)
    } catch (e) {
      result = {error: (e as Error).message}
    }
    await this.host.db.unit(() => {
      const latest = this.host.db.get<StoredEvent>('events', eventId) ?? stored
      const attempt = {
        at: this.host.iso(),
        url,
        ...(result.status !== undefined ? {status: result.status} : {}),
        ...(result.error ? {error: result.error} : {}),
        replay: true,
      }
      this.host.db.put('events', eventId, {...latest, attempts: [...(latest.attempts ?? []), attempt]})
    })
    this.host.log(`webhook replay ${stored.event.type} ${eventId} -> ${url}: ${result.status ?? result.error}`)
    return {event: stored.event, ...result}
  }

  /** Resolves when nothing is due for delivery right now (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.pumping && !this.dueNow()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** The number of the last event recorded (events after it are new). */
  lastSeq(): number {
    return this.seq
  }

  /** When the next delivery attempt is due (sandbox clock), if an event is waiting for one. */
  nextAttemptAt(): number | undefined {
    const url = this.host.config().webhookEndpoint
    const next = url ? oldestPendingEvent(this.host.db, url) : undefined
    if (!next || next.seq > this.committedSeq || this.stopped) return undefined
    return next.nextAttemptAt ?? this.host.now()
  }

  /** Looks again for what is due (the clock moved). */
  wake(): void {
    this.kick()
  }

  private dueNow(): boolean {
    const url = this.host.config().webhookEndpoint
    const next = url ? oldestPendingEvent(this.host.db, url) : undefined
    return Boolean(next && next.seq <= this.committedSeq && (next.nextAttemptAt ?? 0) <= this.host.now())
  }

  private kick(): void {
    if (this.stopped) return
    if (this.pumping) {
      this.again = true
      return
    }
    void this.pump()
  }

  private async pump(): Promise<void> {
    this.pumping = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    try {
      do {
        this.again = false
        for (;;) {
          if (this.stopped) return
          const url = this.host.config().webhookEndpoint
          const next = url ? oldestPendingEvent(this.host.db, url) : undefined
          if (!next || !url || next.seq > this.committedSeq) break
          const wait = (next.nextAttemptAt ?? 0) - this.host.now()
          if (wait > 0) {
            if (this.host.clock.ticking()) {
              this.timer = setTimeout(() => this.kick(), wait)
              this.timer.unref?.()
            }
            break
          }
          await this.attempt(next, url)
        }
      } while (this.again)
    } catch (e) {
      this.host.log(`webhook delivery error: ${(e as Error).stack ?? String(e)}`)
    } finally {
      this.pumping = false
      if (!this.dueNow()) for (const w of this.idleWaiters.splice(0)) w()
    }
  }

  private async attempt(stored: StoredEvent, url: string): Promise<void> {
    let status: number | undefined
    let error: string | undefined
    try {
      status = (await this.deliverNow(stored.event, url)).status
    } catch (e) {
      error = (e as Error).message
    }
    if (this.stopped) return
    const ok = status !== undefined && ((status >= 200 && status < 300) || status === 409)
    await this.host.db.unit(() => {
      const current = this.host.db.get<StoredEvent>('events', stored.event.id)
      if (!current || current.delivery !== 'pending') return
      const attempts = [
        ...current.attempts,
        {at: this.host.iso(), url, ...(status !== undefined ? {status} : {}), ...(error ? {error} : {})},
      ]
      const tries = attempts.filter((a) => !a.replay).length
      const exhausted = current.event.type === 'TEST' || tries >= MAX_ATTEMPTS
      const delay = Math.min(30 * 60_000, this.host.settings().webhookRetryBaseMs * 2 ** (tries - 1))
      const next: StoredEvent = ok
        ? {...current, attempts, delivery: 'delivered', nextAttemptAt: undefined}
        : exhausted
          ? {...current, attempts, delivery: 'dead', nextAttemptAt: undefined}
          : {...current, attempts, nextAttemptAt: this.host.now() + delay}
      this.host.db.put('events', current.event.id, next)
      if (next.delivery === 'dead')
        this.host.log(`webhook ${current.event.id} is dead after ${attempts.length} attempt(s)`)
    })
  }
}
