import type {Db} from './store/db.js'

/**
 * real: the machine's time (the default). frozen: stands still at `frozenAt` until advanced.
 * offset: ticks with the machine, `offsetMs` ahead of (or behind) it, after an advance or an unfreeze.
 */
export type ClockMode = 'real' | 'frozen' | 'offset'

/** The clock's durable state: a row of the config table, so it is per sandbox and travels with its database. */
export interface ClockState {
  mode: ClockMode
  /** frozen: the instant the clock stands at (ms since the epoch). */
  frozenAt?: number
  /** offset: what is added to the machine's time. */
  offsetMs: number
}

const REAL: ClockState = {mode: 'real', offsetMs: 0}
const ROW = ['config', 'clock'] as const

/** The machine's time: the only place under src/emulator that reads it (test/unit/emulator/clock-reads.test.ts). */
export const machineTime = (): number => Date.now()

/**
 * The sandbox's own clock, the one source of `now` for everything time-dependent in it (expiries,
 * TTLs, delays, backoff, timestamps). Its state is read from the database on every call (the config
 * table is cached in memory), never kept in a module: each sandbox, and each copy of its database,
 * has its own. `pin` holds it at one instant while an advance runs a job at that job's due time.
 */
export class Clock {
  private pinned?: number

  constructor(
    private readonly db: Db,
    /** The machine's time; tests may fix it. */
    readonly machine: () => number = machineTime,
  ) {}

  /** Writes the real-time state when the database has none yet, so that reading the clock is a cache hit, never a query. */
  ensureStored(): void {
    if (!this.db.get<ClockState>(...ROW)) this.save(REAL)
  }

  state(): ClockState {
    return this.db.get<ClockState>(...ROW) ?? REAL
  }

  now(): number {
    if (this.pinned !== undefined) return this.pinned
    const s = this.state()
    return s.mode === 'frozen' ? (s.frozenAt ?? this.machine()) : this.machine() + s.offsetMs
  }

  /** Whether time passes by itself (real or offset, and no advance holding it): timers are worth arming. */
  ticking(): boolean {
    return this.pinned === undefined && this.state().mode !== 'frozen'
  }

  /** Stops the clock where it reads now. */
  freeze(): ClockState {
    return this.save({mode: 'frozen', frozenAt: this.now(), offsetMs: 0})
  }

  /** Lets a frozen clock tick again from where it stands (never back to the machine's time: that is reset). */
  unfreeze(): ClockState {
    const s = this.state()
    if (s.mode !== 'frozen') return s
    return this.save({mode: 'offset', offsetMs: s.frozenAt! - this.machine()})
  }

  /** Back to the machine's time. */
  reset(): ClockState {
    return this.save(REAL)
  }

  /** Holds `now` at `at` (an advance running a job at its due time); undefined lets go. */
  pin(at: number | undefined): void {
    this.pinned = at
  }

  /** Leaves the clock at `at` (the end of an advance), frozen if it was, ticking from there otherwise. */
  settleAt(at: number): ClockState {
    return this.state().mode === 'frozen'
      ? this.save({mode: 'frozen', frozenAt: at, offsetMs: 0})
      : this.save({mode: 'offset', offsetMs: at - this.machine()})
  }

  private save(next: ClockState): ClockState {
    this.db.put(...ROW, next)
    return next
  }
}
