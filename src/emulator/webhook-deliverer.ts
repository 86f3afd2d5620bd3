import type {OutboxHost} from './webhooks.js'
import {objectOfEvent} from './store/event-object.js'
import {pendingAfter, pendingHeadOf, pendingHeads, type StoredEvent, type WebhookEvent} from './store/events.js'

/** Deliveries in flight at once, each to a different object: one slow receiver costs a round trip per object, not per event. */
export const MAX_PARALLEL = 64
/** Attempts before an event is marked dead (the first and 11 retries). */
export const MAX_ATTEMPTS = 12
/** After a failed write (a lock, a full disk) the deliverer looks again this soon, doubling up to the last value. */
const RESUME_MS = [100, 5_000] as const

type Send = (event: WebhookEvent, url: string) => Promise<{status: number}>

/**
 * Sends the pending events to the configured endpoint, in order within each object and in parallel
 * across objects (up to MAX_PARALLEL): a failing event holds back only the later events of its own
 * object, retried with exponential backoff until it succeeds or runs out of attempts. The database
 * is the truth (a restart resumes from it); what is in flight is kept here. Any failure to record an
 * attempt (a lock, a full disk) schedules a fresh look by itself, so delivery never waits on an
 * unrelated request to start again.
 */
export class Deliverer {
  /** Object -> the seq of its event in flight. */
  private readonly inFlight = new Map<string, number>()
  /** Seqs of events due now that wait for a free slot. */
  private waiting: number[] = []
  private scanQueued = false
  private stopped = false
  private timer?: NodeJS.Timeout
  private timerAt = Infinity
  private resumeTries = 0
  private waiters: Array<{done: () => boolean; resolve: () => void}> = []

  constructor(
    private readonly host: OutboxHost,
    private readonly send: Send,
    /** Events numbered above this are not committed yet: never sent. */
    private readonly committedSeq: () => number,
  ) {}

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    for (const w of this.waiters.splice(0)) w.resolve()
  }

  /** Looks again at everything pending, once per turn of the event loop however often asked. */
  rescan(): void {
    if (this.stopped || this.scanQueued) return
    this.scanQueued = true
    setImmediate(() => {
      this.scanQueued = false
      this.scan()
    })
  }

  /** Nothing in flight, nothing due now and no look pending (tests, shutdown). */
  idle(): Promise<void> {
    return this.until(() => !this.scanQueued && this.inFlight.size === 0 && this.waiting.length === 0)
  }

  /**
   * Resolves when no event numbered above `seq` is in flight or due now (an advance waits for the
   * webhooks of the job it ran, not for an older backlog), or after `maxMs`; says which.
   */
  async settledAfter(seq: number, maxMs: number): Promise<boolean> {
    // An event above `seq` held behind an older one of its object still in flight is not settled either.
    const held = () => [...this.inFlight].some(([object, s]) => s <= seq && pendingAfter(this.host.db, object, seq))
    const done = () =>
      !this.scanQueued &&
      ![...this.inFlight.values()].some((s) => s > seq) &&
      !this.waiting.some((s) => s > seq) &&
      !held()
    if (done()) return true
    let timer!: NodeJS.Timeout
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), maxMs)))
    const settled = await Promise.race([this.until(done).then(() => true), timedOut])
    clearTimeout(timer)
    return settled
  }

  /** When the next attempt falls due (sandbox clock), among events not in flight, if one waits for it. */
  nextAttemptAt(): number | undefined {
    const url = this.host.config().webhookEndpoint
    if (!url || this.stopped) return undefined
    let next: number | undefined
    for (const h of pendingHeads(this.host.db, url)) {
      if (h.seq > this.committedSeq() || this.inFlight.has(objectOfEvent(h.event))) continue
      const at = h.nextAttemptAt ?? this.host.now()
      if (next === undefined || at < next) next = at
    }
    return next
  }

  private until(done: () => boolean): Promise<void> {
    if (done() || this.stopped) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({done, resolve}))
  }

  private notify(): void {
    this.waiters = this.waiters.filter((w) => (w.done() ? (w.resolve(), false) : true))
  }

  private scan(): void {
    if (this.stopped) return
    const url = this.host.config().webhookEndpoint
    this.waiting = []
    let nextAt = Infinity
    try {
      if (url)
        for (const head of pendingHeads(this.host.db, url)) {
          const at = this.consider(head, url)
          if (at !== undefined) nextAt = Math.min(nextAt, at)
        }
    } catch (e) {
      this.failed(e)
    }
    this.arm(nextAt)
    this.notify()
  }

  /** Starts `head` if it is due and a slot is free; answers when it falls due otherwise. */
  private consider(head: StoredEvent, url: string): number | undefined {
    const object = objectOfEvent(head.event)
    if (head.seq > this.committedSeq() || this.inFlight.has(object)) return undefined
    const at = head.nextAttemptAt ?? 0
    if (at > this.host.now()) return at
    if (this.inFlight.size >= MAX_PARALLEL) this.waiting.push(head.seq)
    else this.start(head, object, url)
    return undefined
  }

  private arm(at: number): void {
    if (at === this.timerAt && this.timer) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.timerAt = Infinity
    // A clock that stands still reaches no later time by itself: an advance makes those attempts.
    if (at === Infinity || !this.host.clock.ticking()) return
    this.timerAt = at
    this.timer = setTimeout(
      () => ((this.timer = undefined), (this.timerAt = Infinity), this.rescan()),
      at - this.host.now(),
    )
    this.timer.unref?.()
  }

  private start(stored: StoredEvent, object: string, url: string): void {
    this.inFlight.set(object, stored.seq)
    void this.attempt(stored, url)
      .then(() => {
        this.resumeTries = 0
        this.inFlight.delete(object)
        if (this.stopped) return
        // A slot is free: the others waiting for one go first; otherwise this object's next event.
        if (this.waiting.length) return this.rescan()
        const current = this.host.config().webhookEndpoint
        const next = current ? pendingHeadOf(this.host.db, current, object) : undefined
        const at = next ? this.consider(next, current!) : undefined
        if (at !== undefined && at < this.timerAt) this.arm(at)
      })
      .catch((e) => {
        this.inFlight.delete(object)
        this.failed(e)
      })
      .finally(() => this.notify())
  }

  /** Recording failed (a lock, a full disk): look again soon, by itself. */
  private failed(e: unknown): void {
    this.host.log(`webhook delivery error: ${(e as Error).stack ?? String(e)}`)
    if (this.stopped) return
    const wait = Math.min(RESUME_MS[1], RESUME_MS[0] * 2 ** this.resumeTries++)
    setTimeout(() => this.rescan(), wait).unref?.()
  }

  private async attempt(stored: StoredEvent, url: string): Promise<void> {
    let status: number | undefined
    let error: string | undefined
    try {
      status = (await this.send(stored.event, url)).status
    } catch (e) {
      error = (e as Error).message
      if ((e as NodeJS.ErrnoException).code === 'ECONNREFUSED') this.host.unreachable?.(url)
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
      // The endpoint changed while this attempt was out: the next one goes to the new endpoint at once.
      const moved = current.endpoint !== url
      const delay = Math.min(30 * 60_000, this.host.settings().webhookRetryBaseMs * 2 ** (tries - 1))
      const next: StoredEvent = ok
        ? {...current, endpoint: url, attempts, delivery: 'delivered', nextAttemptAt: undefined}
        : exhausted && !moved
          ? {...current, attempts, delivery: 'dead', nextAttemptAt: undefined}
          : {...current, attempts, nextAttemptAt: moved ? undefined : this.host.now() + delay}
      this.host.db.put('events', current.event.id, next)
      if (next.delivery === 'dead')
        this.host.log(`webhook ${current.event.id} is dead after ${attempts.length} attempt(s)`)
    })
  }
}
