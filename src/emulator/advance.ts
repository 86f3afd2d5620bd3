import type {JobRun} from './jobs.js'

/** What an advance does between jobs: hold the clock, and let the webhook outbox catch up. */
export interface AdvanceHooks {
  /** Sets the virtual time the next step runs at. */
  at(t: number): void
  /**
   * Resolves once the webhook deliveries of this step are done: after a job, those of the events
   * it emitted; after a step for a webhook retry, whatever delivery is due then.
   */
  settle(afterJob: boolean): Promise<void>
  /** When the next such thing is due (the next webhook attempt), if any. */
  nextOther(): number | undefined
  /**
   * Runs inside each job's unit, before the job: the advance records the clock at the job's time
   * there, so a crash after the job committed never leaves the clock behind what it did.
   */
  record(at: number): void
  /**
   * Job kinds that leave the same state whenever they run, as long as they run (housekeeping: a
   * prune later prunes what it would have, and what expired since). In an advance they run when
   * the next other thing happens, or at its end, not at each of their own due times: a prune due
   * daily made an advance of five years 1,825 prunes (4.7 s).
   */
  deferrable?: readonly string[]
}

/**
 * An advance stopped at a job that could not run for a passing reason (a full disk, another
 * process's lock): the clock stands where the last committed job left it.
 */
export class AdvanceStopped extends Error {
  override readonly name = 'AdvanceStopped'
  constructor(
    override readonly cause: unknown,
    readonly runs: JobRun[],
    /** The virtual time the advance reached: the last job that committed, or where it started. */
    readonly reached: number,
  ) {
    super(`advance stopped: ${(cause as Error)?.message ?? String(cause)}`)
  }
}
