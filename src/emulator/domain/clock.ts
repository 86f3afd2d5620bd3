import {parseSpan} from '../../lib/duration.js'
import type {ClockAdvance, ClockAdvanceRequest, ClockView} from '../../lib/schemas/clock.js'
import type {SandboxContext} from '../context.js'
import {conflict} from '../http-error.js'
import {eventsAfter} from '../store/events.js'
import {countJobs, jobsScheduledAfter, nextDueAt} from '../store/jobs.js'

/** The clock as GET /sandbox/clock shows it. */
export function clockView(ctx: SandboxContext): ClockView {
  const s = ctx.clock.state()
  const next = nextDueAt(ctx.db)
  const machine = ctx.clock.machine()
  const now = ctx.now()
  return {
    mode: s.mode,
    now: ctx.iso(now),
    machineTime: ctx.iso(machine),
    // Read once each: two readings of a ticking machine clock would show real time off by a millisecond.
    offsetMs: s.mode === 'real' ? 0 : now - machine,
    pendingJobs: countJobs(ctx.db),
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
  let result: Awaited<ReturnType<typeof ctx.scheduler.advance>>
  try {
    result = await ctx.scheduler.advance(target, {
      at: (t) => ctx.clock.pin(t),
      settle: () => {
        ctx.webhooks.wake()
        return ctx.webhooks.idle()
      },
      nextOther: () => ctx.webhooks.nextAttemptAt(),
    })
    await ctx.db.unit(() => ctx.clock.settleAt(result.end))
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
  }
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
  const later = jobsScheduledAfter(ctx.db, machine)
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
