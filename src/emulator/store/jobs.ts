import type {Db} from './db.js'

/** Ids of jobs due at `now`, earliest first (index jobs_due_at). */
export function dueJobs(db: Db, now: number, limit: number): string[] {
  return db.sql
    .rows('SELECT id FROM jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT ?', now, limit)
    .map((r) => r[0] as string)
}

/** When the earliest job is due, if any; `except`: leaving out jobs of these kinds. */
export function nextDueAt(db: Db, except: readonly string[] = []): number | undefined {
  const row = db.sql.row(`SELECT due_at FROM jobs${notIn(except)} ORDER BY due_at LIMIT 1`, ...except)
  return row ? Number(row[0]) : undefined
}

/** Jobs scheduled after `at` (the sandbox clock ran ahead of the machine's when they were), but for those of the `except` kinds. */
export function jobsScheduledAfter(db: Db, at: number, except: readonly string[] = []): Job[] {
  return db.all<Job>('jobs').filter((j) => (j.scheduledAt ?? 0) > at && !except.includes(j.kind))
}

const notIn = (kinds: readonly string[]) =>
  kinds.length ? ` WHERE kind NOT IN (${kinds.map(() => '?').join(', ')})` : ''

export function jobsOfKind(db: Db, kind: string): Job[] {
  return db.docs<Job>(db.sql.rows('SELECT doc FROM jobs WHERE kind = ? ORDER BY due_at, id', kind))
}

/** A row of the jobs table: durable delayed work the scheduler runs when due. */
export interface Job {
  id: string
  kind: string
  dueAt: number
  payload: Record<string, unknown>
  /** When it was scheduled (sandbox clock): a job from a later virtual time holds back a clock reset. */
  scheduledAt?: number
  /** Runs that failed for a reason of the job's own (not a lock or a full disk). */
  failures?: number
}

export function countJobs(db: Db, except: readonly string[] = []): number {
  return Number(db.sql.row(`SELECT count(*) FROM jobs${notIn(except)}`, ...except)?.[0] ?? 0)
}
