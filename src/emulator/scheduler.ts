import {randomUUID} from 'node:crypto'
import type {Db} from './db.js'

export interface Job {
  id: string
  kind: string
  dueAt: number
  payload: Record<string, unknown>
}

type JobHandler = (payload: Record<string, unknown>) => void | Promise<void>

/**
 * Durable delayed work (KYC decisions, payment completion, webhook retries): jobs are stored in the
 * journal and re-armed after a restart, so a decision due while the sandbox was down still happens.
 */
export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private stopped = false

  constructor(private readonly db: Db, private readonly now: () => number, private readonly onError: (e: unknown) => void) {}

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  /** Runs `kind` with `payload` after `delayMs` (0 = next tick). */
  after(delayMs: number, kind: string, payload: Record<string, unknown>): Job {
    const job: Job = {id: randomUUID(), kind, dueAt: this.now() + Math.max(0, delayMs), payload}
    this.db.put('jobs', job.id, job)
    this.arm(job)
    return job
  }

  /** Re-arms every stored job (called once the handlers are registered). */
  start(): void {
    for (const job of this.db.all<Job>('jobs')) this.arm(job)
  }

  pending(kind?: string): Job[] {
    return this.db.all<Job>('jobs').filter((j) => !kind || j.kind === kind)
  }

  private arm(job: Job): void {
    if (this.stopped) return
    const t = setTimeout(() => void this.run(job.id), Math.max(0, job.dueAt - this.now()))
    t.unref?.()
    this.timers.set(job.id, t)
  }

  private async run(id: string): Promise<void> {
    this.timers.delete(id)
    const job = this.db.get<Job>('jobs', id)
    if (!job || this.stopped) return
    this.db.del('jobs', id)
    const handler = this.handlers.get(job.kind)
    try {
      await handler?.(job.payload)
    } catch (e) {
      this.onError(e)
    }
  }

  stop(): void {
    this.stopped = true
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }
}
