import {parseSpan} from '../../lib/duration.js'
import type {ClockAdvance, ClockAdvanceRequest, ClockView} from '../../lib/schemas/clock.js'
import type {SandboxContext} from '../context.js'
import {conflict, HttpError} from '../http-error.js'
import {AdvanceStopped} from '../scheduler.js'
import {isTransient, storeFaultOf} from '../store/errors.js'
import {eventsAfter} from '../store/events.js'
import {countJobs, jobsScheduledAfter, nextDueAt} from '../store/jobs.js'
import {HOUSEKEEPING_JOBS} from './retention.js'

/** The clock as GET /sandbox/clock shows it. */
export function clockView(ctx: SandboxContext): ClockView {
  const s = ctx.clock.state()
  const next = nextDueAt(ctx.db, HOUSEKEEPING_JOBS)
  const machine = ctx.clock.machine()
  const now = ctx.now()
  return {
    mode: s.mode,
    now: ctx.iso(now),
    machineTime: ctx.iso(machine),
    // Read once each: two readings of a ticking machine clock would show real time off by a millisecond.
    offsetMs: s.mode === 'real' ? 0 : now - machine,
    // Housekeeping (retention) is left out: what is pending here is work that moves objects on.
    pendingJobs: countJobs(ctx.db, HOUSEKEEPING_JOBS),
    nextJobAt: next === undefined ? null : ctx.iso(next),
  }
}

/**
 * Moves the clock on by a span or to an instant, never back, running every job due on the way in due
 * order, each at its own time, with the webhooks it emits delivered before the next runs (Scheduler.advance).
 * Runs outside a request unit: each job is a unit of its own.
 */
export async function advanceClock(ctx: SandboxContext, req: ClockAdvanceRequest): Promise<ClockAdvance> {
  const from = ctx.now()
  const target = req.by !== undefined ? from + parseSpan(req.by)! : Date.parse(req.to!)
  if (target < from)
    throw conflict(
      'CLOCK_NEVER_GOES_BACK',
      `The sandbox clock reads ${ctx.iso(from)}; ${req.to} is earlier, and the clock never moves back`,
      {now: ctx.iso(from), to: req.to},
    )
  const seqBefore = ctx.webhooks.lastSeq()
  const waits = webhookWaits(ctx)
  let result: Awaited<ReturnType<typeof ctx.scheduler.advance>>
  try {
    result = await ctx.scheduler.advance(target, {
      at: (t) => {
        ctx.clock.pin(t)
        waits.step()
      },
      settle: (afterJob) => waits.settle(afterJob),
      nextOther: () => (waits.spent() ? undefined : ctx.webhooks.nextAttemptAt()),
      // In the job's own unit: the clock is durable at every job's time, never behind what a job committed.
      record: (t) => ctx.clock.settleAt(t),
      deferrable: HOUSEKEEPING_JOBS,
    })
    await ctx.db
      .unit(() => ctx.clock.settleAt(result.end))
      .catch((e: unknown) => {
        const ran = result.runs.filter((r) => r.outcome === 'ran')
        throw isTransient(e) ? new AdvanceStopped(e, result.runs, ran.at(-1)?.at ?? from) : e
      })
  } catch (e) {
    if (e instanceof AdvanceStopped) throw advanceStoppedError(ctx, e, from, target)
    throw e
  } finally {
    ctx.clock.pin(undefined)
    ctx.scheduler.wake()
    ctx.webhooks.wake()
  }
  const events = eventsAfter(ctx.db, seqBefore).map(({event}) => ({
    id: event.id,
    type: event.type,
    timestamp: event.timestamp,
  }))
  const jobs = result.runs.map((r) => ({id: r.id, kind: r.kind, at: ctx.iso(r.at), outcome: r.outcome}))
  return {
    from: ctx.iso(from),
    to: ctx.iso(result.end),
    clock: clockView(ctx),
    jobs,
    events,
    summary: {jobs: countBy(jobs.map((j) => j.kind)), events: countBy(events.map((e) => e.type))},
    webhooks: waits.report(),
  }
}

/** How long an advance waits, in all, for the webhooks of the jobs it runs. */
export const ADVANCE_WEBHOOK_WAIT_MS = 10_000

/**
 * The advance's waits on webhooks: after each job, for the events that job emitted (not for an older
 * backlog), after a retry step for what falls due then; all within ADVANCE_WEBHOOK_WAIT_MS. Past
 * that the clock goes on without them (they are still delivered), and the answer says so.
 */
function webhookWaits(ctx: SandboxContext) {
  let stepSeq = ctx.webhooks.lastSeq()
  let waitedMs = 0
  let unsettled = 0
  return {
    step: () => void (stepSeq = ctx.webhooks.lastSeq()),
    spent: () => waitedMs >= ADVANCE_WEBHOOK_WAIT_MS,
    async settle(afterJob: boolean): Promise<void> {
      ctx.webhooks.wake()
      const t0 = performance.now()
      const left = ADVANCE_WEBHOOK_WAIT_MS - waitedMs
      const settled = left > 0 && (await ctx.webhooks.settledAfter(afterJob ? stepSeq : 0, left))
      waitedMs += performance.now() - t0
      if (!settled) unsettled++
    },
    report: () => ({waitedMs: Math.round(waitedMs), maxWaitMs: ADVANCE_WEBHOOK_WAIT_MS, stepsNotSettled: unsettled}),
  }
}

/**
 * 507 (a full disk) or 503 (a lock) with Retry-After, saying how far the advance got: the clock stands
 * at the last job that committed, and the jobs left run on the next advance or tick.
 */
function advanceStoppedError(ctx: SandboxContext, e: AdvanceStopped, from: number, target: number): HttpError {
  const full = storeFaultOf(e.cause) === 'full'
  const ran = e.runs.filter((r) => r.outcome === 'ran').length
  return new HttpError(
    full ? 507 : 503,
    full ? 'INSUFFICIENT_STORAGE' : 'SANDBOX_BUSY',
    `The advance stopped at ${ctx.iso(e.reached)} after ${ran} job(s): ${
      full ? 'the disk holding the sandbox database is full' : "another process holds the database's write lock"
    }. The clock stands there; the jobs left run on the next advance or tick once the ${full ? 'space is freed' : 'lock is released'}.`,
    {
      from: ctx.iso(from),
      reached: ctx.iso(e.reached),
      target: ctx.iso(target),
      jobsRun: ran,
      pendingJobs: countJobs(ctx.db, HOUSEKEEPING_JOBS),
    },
    {'retry-after': full ? '30' : '1'},
  )
}

/** Stops the clock where it reads now (in the caller's unit). */
export function freezeClock(ctx: SandboxContext): ClockView {
  ctx.clock.freeze()
  return clockView(ctx)
}

export function unfreezeClock(ctx: SandboxContext): ClockView {
  ctx.clock.unfreeze()
  wakeAll(ctx)
  return clockView(ctx)
}

/**
 * Back to the machine's time. Jobs scheduled at a virtual time later than the machine's would then
 * wait out real time (and their objects carry times from the future), so the reset is refused while
 * any is pending, unless forced.
 */
export function resetClock(ctx: SandboxContext, force = false): ClockView {
  const machine = ctx.clock.machine()
  const later = jobsScheduledAfter(ctx.db, machine, HOUSEKEEPING_JOBS)
  if (later.length && !force)
    throw conflict(
      'CLOCK_JOBS_PENDING',
      `${later.length} job(s) scheduled at a virtual time later than the machine's are pending; advance past them, or reset with force`,
      {
        pendingJobs: later.length,
        kinds: countBy(later.map((j) => j.kind)),
        lastDueAt: ctx.iso(Math.max(...later.map((j) => j.dueAt))),
      },
    )
  ctx.clock.reset()
  wakeAll(ctx)
  return clockView(ctx)
}

/** Timers are re-armed for the new pace of time (a frozen clock arms none for later work). */
function wakeAll(ctx: SandboxContext): void {
  ctx.scheduler.wake()
  ctx.webhooks.wake()
}

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const k of keys) out[k] = (out[k] ?? 0) + 1
  return out
}
