import {randomUUID, type KeyObject} from 'node:crypto'
import type {PlatformConfig, SandboxSettings} from './settings.js'
import type {Db} from './store/db.js'
import {signBody} from './webhook-key.js'
import {postWebhook} from './webhook-post.js'
import {Deliverer} from './webhook-deliverer.js'
import {eventsOfType, maxEventSeq, pendingEvents, type StoredEvent, type WebhookEvent} from './store/events.js'

export type {StoredEvent, WebhookEvent}

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
  /** A delivery to `url` could not connect (a listener that may be gone). */
  unreachable?(url: string): void
}

/**
 * A durable webhook outbox. An event is a row of the events table written in the same unit as the
 * state change that causes it, so it exists exactly when that change does. Pending events go to the
 * endpoint configured now: when it changes they follow it and are tried again at once; while none
 * is set they are held. Delivery keeps order within one object and runs in parallel across objects
 * (webhook-deliverer.ts), with exponential backoff per event until it succeeds or runs out of
 * attempts and is marked dead (GET /sandbox/events shows each event's attempts). Delivery is at
 * least once: an event is marked delivered only after the endpoint answered, and pending events
 * resume after a restart, kill -9 included. Only committed events are sent.
 */
export class Webhooks {
  private seq: number
  private committedSeq: number
  /** A commit may have brought something to send (a new event, a new endpoint). */
  private dirty = true
  private readonly deliverer: Deliverer

  constructor(
    private readonly host: OutboxHost,
    private readonly key: KeyObject,
  ) {
    this.seq = maxEventSeq(host.db)
    this.committedSeq = this.seq
    this.deliverer = new Deliverer(
      host,
      (event, url) => this.deliverNow(event, url),
      () => this.committedSeq,
    )
    host.db.onCommit(() => {
      this.committedSeq = this.seq
      if (this.dirty) this.kick()
    })
  }

  /** Starts delivering what is pending (called once the emulator is up). */
  start(): void {
    this.kick()
  }

  stop(): void {
    this.deliverer.stop()
  }

  /**
   * The endpoint changed (in the caller's unit): every pending event now goes to `url` and is tried
   * at once, or is held while there is none; nothing stays addressed to the old endpoint.
   */
  retarget(url: string | null): void {
    for (const e of pendingEvents(this.host.db)) {
      const {endpoint: _old, nextAttemptAt: _at, ...rest} = e
      this.host.db.put('events', e.event.id, {...rest, ...(url ? {endpoint: url} : {})})
    }
    this.dirty = true
    if (!this.host.db.inUnit) this.kick() // committed on its own already
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
    this.dirty = true
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
    return this.deliverer.idle()
  }

  /** Resolves when the events after `seq` are out (or wait on a backoff), or after `maxMs`; true when settled. */
  settledAfter(seq: number, maxMs: number): Promise<boolean> {
    return this.deliverer.settledAfter(seq, maxMs)
  }

  /** The number of the last event recorded (events after it are new). */
  lastSeq(): number {
    return this.seq
  }

  /** When the next delivery attempt is due (sandbox clock), if an event is waiting for one. */
  nextAttemptAt(): number | undefined {
    return this.deliverer.nextAttemptAt()
  }

  /** Looks again for what is due (the clock moved). */
  wake(): void {
    this.dirty = true
    this.kick()
  }

  private kick(): void {
    this.dirty = false
    this.deliverer.rescan()
  }
}
