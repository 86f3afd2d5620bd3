import type {SandboxContext} from '../context.js'
import {hasUnstamped, oldestRetained, pruneEvents, pruneIdempotency, stampIdempotency} from '../store/retention.js'
import {jobsOfKind} from '../store/jobs.js'

/**
 * Retention (docs/sandbox.md "Retention"): how long the sandbox keeps records that only matter for a
 * while, on the sandbox clock. Live objects (customers, accounts, transactions, cards ...) are kept
 * for ever; emulator.log is rotated by size (log-file.ts), not here.
 */
export interface Retention {
  /** A stored answer to an idempotent request replays this long after it was stored (Stripe keeps keys 24 h; the spec names no lifetime). */
  idempotencyMs: number
  /** A delivered, dead or never-addressed webhook event, its attempts inside it, is kept this long after its last attempt. */
  eventsMs: number
}

export const DEFAULT_RETENTION: Retention = {idempotencyMs: 24 * 3_600_000, eventsMs: 30 * 86_400_000}

/** The job that prunes one batch of expired records of each kind, then schedules its next run. */
export const RETENTION_JOB = 'retention.prune'

/**
 * Jobs that tidy the sandbox rather than move an object on: the clock's pendingJobs and nextJobAt
 * leave them out, and they never hold back a clock reset (they wait for no virtual-time outcome).
 */
export const HOUSEKEEPING_JOBS: readonly string[] = [RETENTION_JOB]

/** Rows per kind deleted in one job (one transaction): a few milliseconds, so requests queued behind it barely wait. */
export const PRUNE_BATCH = 500

/**
 * Registers the retention job and puts one in place due now, at every start (the retention may have
 * changed since the last): it prunes what has expired and schedules itself for the next expiry.
 */
export function registerRetentionJobs(ctx: SandboxContext, retention: Retention): void {
  ctx.scheduler.on(RETENTION_JOB, () => {
    pruneExpired(ctx, retention)
  })
  try {
    for (const job of jobsOfKind(ctx.db, RETENTION_JOB)) ctx.db.del('jobs', job.id)
    ctx.scheduler.after(0, RETENTION_JOB, {})
  } catch (e) {
    // A full disk or a lock at start: the job already stored (if any) still runs; never refuse to start over it.
    ctx.log(`retention: could not schedule the prune job: ${(e as Error).message}`)
  }
}

/**
 * One batch (in the job's unit): idempotency records without a time get one, then up to PRUNE_BATCH
 * expired idempotency records and events go. A full batch runs again at once (as a new unit, so
 * requests run in between); otherwise the next run is when the oldest retained record expires.
 */
export function pruneExpired(
  ctx: SandboxContext,
  retention: Retention,
): {stamped: number; idempotency: number; events: number} {
  const now = ctx.now()
  const stamped = stampIdempotency(ctx.db, now, PRUNE_BATCH)
  const idempotency = pruneIdempotency(ctx.db, now - retention.idempotencyMs, PRUNE_BATCH)
  const events = pruneEvents(ctx.db, now - retention.eventsMs, PRUNE_BATCH)
  const more = [stamped, idempotency, events].includes(PRUNE_BATCH) || hasUnstamped(ctx.db)
  ctx.scheduler.after(more ? 0 : nextExpiry(ctx, retention, now) - now, RETENTION_JOB, {})
  if (idempotency || events)
    ctx.log(`retention: pruned ${idempotency} idempotency record(s) and ${events} webhook event(s)`)
  return {stamped, idempotency, events}
}

/** When the oldest retained record expires; with none, one retention from now (a record stored meanwhile expires later). */
function nextExpiry(ctx: SandboxContext, retention: Retention, now: number): number {
  const oldest = oldestRetained(ctx.db)
  const due = Math.min(
    oldest.idempotency === undefined ? Infinity : oldest.idempotency + retention.idempotencyMs,
    oldest.events === undefined ? Infinity : oldest.events + retention.eventsMs,
  )
  return Math.max(now + 1, due === Infinity ? now + Math.min(retention.idempotencyMs, retention.eventsMs) : due)
}
