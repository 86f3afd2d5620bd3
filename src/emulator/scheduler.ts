import {randomUUID} from 'node:crypto'
import type {Db} from './store/db.js'
import {isTransient} from './store/errors.js'
import {dueJobs, jobsOfKind, nextDueAt, type Job} from './store/jobs.js'

export type {Job}

type JobHandler = (payload: Record<string, unknown>) => void | Promise<void>

export interface JobOptions {
  /**
   * Runs in a unit of its own when the job has failed for good (MAX_FAILURES times for a reason of
   * its own): it leaves the job's object in the state the spec gives a failure (a payment FAILED with
   * its hold released), so nothing waits forever on a job that will never succeed.
   */
  giveUp?: (payload: Record<string, unknown>) => void | Promise<void>
}

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
  private readonly handlers = new Map<string, {run: JobHandler} & JobOptions>()
  /** Jobs waiting out a backoff after a failed run, by id: not before this time. */
  private readonly backoff = new Map<string, {at: number; tries: number}>()
  private timer?: NodeJS.Timeout
  private armedFor = Infinity
  private running = false
  private stopped = true

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly onError: (e: unknown) => void,
  ) {}

  on(kind: string, handler: JobHandler, options: JobOptions = {}): void {
    this.handlers.set(kind, {run: handler, ...options})
  }

  /** Runs `kind` with `payload` after `delayMs` (0 = as soon as possible), in the caller's unit. */
  after(delayMs: number, kind: string, payload: Record<string, unknown>): Job {
    const job: Job = {id: randomUUID(), kind, dueAt: this.now() + Math.max(0, delayMs), payload}
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

  pending(kind?: string): Job[] {
    return kind ? jobsOfKind(this.db, kind) : this.db.all<Job>('jobs')
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
    if (this.timer) clearTimeout(this.timer)
    this.armedFor = dueAt
    this.timer = setTimeout(() => void this.runDue(), Math.max(0, dueAt - this.now()))
    this.timer.unref?.()
  }

  private async runDue(): Promise<void> {
    this.timer = undefined
    this.armedFor = Infinity
    if (this.stopped || this.running) return
    this.running = true
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
      if (!this.stopped) {
        this.rearm()
        if (waitUntil < Infinity) this.arm(waitUntil)
      }
    }
  }

  private async runOne(id: string): Promise<void> {
    let job: Job | undefined
    try {
      await this.db.unit(async () => {
        job = this.db.get<Job>('jobs', id)
        if (!job) return
        this.db.del('jobs', id)
        await this.handlers.get(job.kind)?.run(job.payload)
      })
      this.backoff.delete(id)
    } catch (e) {
      this.onError(e)
      if (!job) return this.retryLater(id)
      if (isTransient(e)) return this.retryLater(id)
      const failures = (job.failures ?? 0) + 1
      if (failures < MAX_FAILURES) {
        // Kept for another run; if even that write fails (the disk filled meanwhile), the row is still there and the in-memory backoff spaces the retries.
        this.retryLater(id)
        await this.db.unit(() => this.db.put('jobs', id, {...job!, failures})).catch(this.onError)
        return
      }
      await this.giveUp(job)
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
