import {randomUUID} from 'node:crypto'
import {JOB_KINDS, type JobHandler, type JobKind, type JobOptions, type JobPayload} from './jobs.js'
import type {JobRun, StoredHandler} from './jobs.js'
import type {Db} from './store/db.js'
import {isTransient} from './store/errors.js'
import {dueJobs, jobsOfKind, nextDueAt, type Job} from './store/jobs.js'

export type {Job}
export {AdvanceStopped, type AdvanceHooks} from './advance.js'
import {AdvanceStopped, type AdvanceHooks} from './advance.js'

/** What the scheduler needs of the sandbox clock. */
export interface SchedulerClock {
  now(): number
  /** False while the clock stands still (frozen, or held by an advance): only jobs already due are run by timer. */
  ticking(): boolean
}

/** An advance that keeps finding work past this many steps is a job rescheduling itself forever. */
const MAX_ADVANCE_STEPS = 100_000

/** Failures of a job's own before it is given up. */
export const MAX_FAILURES = 3
/** Backoff after a failed run: doubles from the first value up to the last. */
const BACKOFF_MS = [250, 30_000] as const

/**
 * Durable delayed work (KYC decisions, payment completion, settlements): jobs are rows of the jobs
 * table, indexed by due time. One timer is armed for the earliest job; when it fires, every job due
 * runs as its own unit, in which its effects and the removal of the job commit together. A job
 * that throws is rolled back and logged. A job that failed for a passing reason (another process's
 * lock, a full disk) is kept and retried with backoff, never dropped; one that fails for a reason of
 * its own is retried MAX_FAILURES times and then given up (its `giveUp` runs). Jobs due while the
 * sandbox was down run at start.
 */
export class Scheduler {
  /** By kind; a stored job of a kind this version does not know is left alone. */
  private readonly handlers = new Map<string, {run: StoredHandler; giveUp?: StoredHandler}>()
  /** Jobs waiting out a backoff after a failed run, by id: not before this time. */
  private readonly backoff = new Map<string, {at: number; tries: number}>()
  private timer?: NodeJS.Timeout
  private armedFor = Infinity
  private running = false
  private stopped = true
  /** Resolved when the current run (by timer or by an advance) ends: runs never overlap. */
  private turn: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Db,
    private readonly clock: SchedulerClock,
    private readonly onError: (e: unknown) => void,
  ) {}

  private now(): number {
    return this.clock.now()
  }

  /** Registers the handler of a kind of jobs.ts's list; a second one for the same kind is a wiring error. */
  on<K extends JobKind>(kind: K, handler: JobHandler<K>, options: JobOptions<K> = {}): void {
    if (this.handlers.has(kind)) throw new Error(`The job kind ${kind} has two handlers; a kind has one`)
    this.handlers.set(kind, {run: handler as StoredHandler, giveUp: options.giveUp as StoredHandler | undefined})
  }

  /** Throws naming every kind of jobs.ts's list that no handler runs (called once the jobs are wired). */
  complete(): void {
    const missing = Object.keys(JOB_KINDS).filter((k) => !this.handlers.has(k))
    if (missing.length) throw new Error(`Job kinds with no handler: ${missing.join(', ')}`)
  }

  /** Runs `kind` with `payload` after `delayMs` (0 = as soon as possible), in the caller's unit. */
  after<K extends JobKind>(delayMs: number, kind: K, payload: JobPayload<K>): Job {
    const now = this.now()
    const job: Job = {id: randomUUID(), kind, dueAt: now + Math.max(0, delayMs), scheduledAt: now, payload}
    this.db.put('jobs', job.id, job)
    this.arm(job.dueAt)
    return job
  }

  /** Starts running jobs (called once the handlers are registered). */
  start(): void {
    this.stopped = false
    this.db.onRollback(() => this.rearm())
    this.rearm()
  }

  pending(kind?: JobKind): Job[] {
    return kind ? jobsOfKind(this.db, kind) : this.db.all<Job>('jobs')
  }

  /** Re-reads when the next job is due (after the clock changed mode). */
  wake(): void {
    if (!this.stopped) this.rearm()
  }

  private rearm(): void {
    const due = nextDueAt(this.db)
    this.armedFor = Infinity
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (due !== undefined) this.arm(due)
  }

  private arm(dueAt: number): void {
    if (this.stopped || dueAt >= this.armedFor) return
    const wait = Math.max(0, dueAt - this.now())
    // A clock that stands still reaches no later due time by itself: an advance runs those jobs.
    if (wait > 0 && !this.clock.ticking()) return
    if (this.timer) clearTimeout(this.timer)
    this.armedFor = dueAt
    this.timer = setTimeout(() => void this.runDue(), wait)
    this.timer.unref?.()
  }

  private async runDue(): Promise<void> {
    this.timer = undefined
    this.armedFor = Infinity
    if (this.stopped || this.running) return
    this.running = true
    let endTurn!: () => void
    this.turn = new Promise((resolve) => (endTurn = resolve))
    let waitUntil = Infinity
    try {
      for (;;) {
        const now = this.now()
        const batch = dueJobs(this.db, now, 50 + this.backoff.size)
        if (!batch.length || this.stopped) break
        let ran = 0
        for (const id of batch) {
          const b = this.backoff.get(id)
          if (b && b.at > now) {
            waitUntil = Math.min(waitUntil, b.at)
            continue
          }
          ran++
          await this.runOne(id)
        }
        if (!ran) break
      }
    } finally {
      this.running = false
      endTurn()
      if (!this.stopped) {
        this.rearm()
        if (waitUntil < Infinity) this.arm(waitUntil)
      }
    }
  }

  /**
   * Runs, in due order, every job due at or before `target`, each in its own unit at its own due
   * time (`hooks.at`), with the webhook outbox settled after each, so that one job's effects and
   * events are there before the next runs. Jobs a job schedules inside the window run too, and so do
   * webhook retries falling due (`hooks.nextOther`). Overdue jobs run at the time the advance starts.
   */
  async advance(target: number, hooks: AdvanceHooks): Promise<{runs: JobRun[]; end: number}> {
    while (this.running) await this.turn
    this.running = true
    let endTurn!: () => void
    this.turn = new Promise((resolve) => (endTurn = resolve))
    const runs: JobRun[] = []
    let at = this.now()
    let reached = at
    try {
      for (let step = 0; ; step++) {
        if (step > MAX_ADVANCE_STEPS)
          throw new Error(`advance stopped after ${MAX_ADVANCE_STEPS} steps: a job keeps scheduling work`)
        const other = hooks.nextOther()
        const job = this.deferred(this.nextJob(target), target, other, hooks.deferrable)
        const next = Math.min(job?.at ?? Infinity, other !== undefined && other <= target ? other : Infinity)
        if (next === Infinity) break
        at = Math.max(at, next)
        hooks.at(at)
        if (job && job.at <= next) {
          const outcome = await this.runOne(job.id, () => hooks.record(at))
          if (outcome) runs.push({id: job.id, kind: outcome.kind, at, outcome: outcome.outcome})
          // A full disk or a lock would fail every job after this one too: stop here, the clock where the last job left it.
          if (outcome?.transient) throw new AdvanceStopped(outcome.transient, runs, reached)
          if (outcome?.outcome === 'ran') reached = at
        }
        await hooks.settle(Boolean(job && job.at <= next))
        // A webhook attempt that could not be made (the outbox stopped) must not spin here.
        if (!job && hooks.nextOther() === other && other! <= at) break
      }
      at = Math.max(at, target)
      hooks.at(at)
      await hooks.settle(true)
    } finally {
      this.running = false
      endTurn()
      if (!this.stopped) this.rearm()
    }
    return {runs, end: at}
  }

  /** A deferrable job runs at the next other job or webhook attempt (up to `target`), if that is later than its own time. */
  private deferred(
    job: {id: string; at: number} | undefined,
    target: number,
    other: number | undefined,
    kinds: readonly string[] = [],
  ): {id: string; at: number} | undefined {
    if (!job || !kinds.length || !kinds.includes(this.db.get<Job>('jobs', job.id)?.kind ?? '')) return job
    const nextOther = Math.min(target, nextDueAt(this.db, kinds) ?? Infinity, other ?? Infinity)
    return {id: job.id, at: Math.max(job.at, nextOther)}
  }

  /** The job to run next up to `target`, and when: its due time, or the end of its backoff after a failed run. */
  private nextJob(target: number): {id: string; at: number} | undefined {
    let best: {id: string; at: number} | undefined
    for (const id of dueJobs(this.db, target, 50 + this.backoff.size)) {
      const dueAt = this.db.get<Job>('jobs', id)?.dueAt ?? 0
      const at = Math.max(dueAt, this.backoff.get(id)?.at ?? 0)
      if (at <= target && (!best || at < best.at)) best = {id, at}
    }
    return best
  }

  private async runOne(
    id: string,
    inUnit?: () => void,
  ): Promise<{kind: string; outcome: JobRun['outcome']; transient?: unknown} | undefined> {
    let job: Job | undefined
    try {
      await this.db.unit(async () => {
        job = this.db.get<Job>('jobs', id)
        if (!job) return
        inUnit?.()
        this.db.del('jobs', id)
        await this.handlers.get(job.kind)?.run(job.payload)
      })
      this.backoff.delete(id)
      return job && {kind: job.kind, outcome: 'ran'}
    } catch (e) {
      this.onError(e)
      if (!job || isTransient(e)) {
        this.retryLater(id)
        if (!isTransient(e)) return undefined
        return {kind: job?.kind ?? this.db.get<Job>('jobs', id)?.kind ?? 'unknown', outcome: 'failed', transient: e}
      }
      const failures = (job.failures ?? 0) + 1
      if (failures < MAX_FAILURES) {
        // Kept for another run; if even that write fails (the disk filled meanwhile), the row is still there and the in-memory backoff spaces the retries.
        this.retryLater(id)
        await this.db.unit(() => this.db.put('jobs', id, {...job!, failures})).catch(this.onError)
        return {kind: job.kind, outcome: 'failed'}
      }
      await this.giveUp(job)
      return {kind: job.kind, outcome: 'given-up'}
    }
  }

  private retryLater(id: string): void {
    const tries = (this.backoff.get(id)?.tries ?? 0) + 1
    this.backoff.set(id, {at: this.now() + Math.min(BACKOFF_MS[1], BACKOFF_MS[0] * 2 ** (tries - 1)), tries})
  }

  /** A job that failed for good: its give-up runs and the job goes, together; if that fails for a passing reason, both wait. */
  private async giveUp(job: Job): Promise<void> {
    try {
      await this.db.unit(async () => {
        this.db.del('jobs', job.id)
        await this.handlers.get(job.kind)?.giveUp?.(job.payload)
      })
      this.backoff.delete(job.id)
    } catch (e) {
      this.onError(e)
      this.retryLater(job.id)
    }
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}
