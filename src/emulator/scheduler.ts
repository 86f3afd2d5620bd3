import {randomUUID} from 'node:crypto'
import type {Db} from './store/db.js'
import {dueJobs, jobsOfKind, nextDueAt, type Job} from './store/jobs.js'

export type {Job}

type JobHandler = (payload: Record<string, unknown>) => void | Promise<void>

/**
 * Durable delayed work (KYC decisions, payment completion, settlements): jobs are rows of the jobs
 * table, indexed by due time. One timer is armed for the earliest job; when it fires, every job due
 * runs as its own unit, in which its effects and the removal of the job commit together. A job
 * that throws is rolled back, logged and then dropped, so it cannot spin. Jobs due while the
 * sandbox was down run at start.
 */
export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>()
  private timer?: NodeJS.Timeout
  private armedFor = Infinity
  private running = false
  private stopped = true

  constructor(private readonly db: Db, private readonly now: () => number, private readonly onError: (e: unknown) => void) {}

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
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
    try {
      for (;;) {
        const batch = dueJobs(this.db, this.now(), 50)
        if (!batch.length || this.stopped) break
        for (const id of batch) await this.runOne(id)
      }
    } finally {
      this.running = false
      if (!this.stopped) this.rearm()
    }
  }

  private async runOne(id: string): Promise<void> {
    try {
      await this.db.unit(async () => {
        const job = this.db.get<Job>('jobs', id)
        if (!job) return
        this.db.del('jobs', id)
        await this.handlers.get(job.kind)?.(job.payload)
      })
    } catch (e) {
      this.onError(e)
      await this.db.unit(() => this.db.del('jobs', id)).catch(this.onError)
    }
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}
