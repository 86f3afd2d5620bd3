import type {Db} from '../../src/emulator/store/db.js'
import {objectOfEvent} from '../../src/emulator/store/event-object.js'

/**
 * The state machines of the money objects, as the seeded model tests check them (issue 29): the
 * states an object may be born in and the moves between states. From ../shared/spec/service-api.md
 * §3 and §6 where it speaks, and from src/emulator/domain where it is silent ("Transitions: not shown"):
 * - Transaction: an agent's payment waits in PENDING for the platform (§3), an SCA customer's in
 *   PENDING_AUTHORIZATION; PROCESSING settles to COMPLETED or FAILED; a settled payout the bank sends
 *   back (suffix 005, sandbox-behaviour) goes COMPLETED -> FAILED with its refund. Money in is born COMPLETED.
 * - Quote: PENDING -> PROCESSING on execute (§3), -> EXPIRED past expiresAt; it follows its
 *   transaction to COMPLETED or FAILED (and FAILED after a return).
 * - Card transaction: §3 and §6 ("every card transaction state transition", VOIDED after expiry,
 *   a return re-fires SETTLED); EXCEPTION when a pull fails, resolved to SETTLED or VOIDED.
 * - Agent action: APPROVED at once or PENDING_APPROVAL until the platform approves or rejects it, or
 *   its payment fails first.
 */
export const MACHINES = {
  transactions: {
    born: ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED'],
    moves: {
      PENDING: ['PROCESSING', 'FAILED'],
      PENDING_AUTHORIZATION: ['PROCESSING', 'FAILED'],
      PROCESSING: ['COMPLETED', 'FAILED'],
      COMPLETED: ['FAILED'],
    },
  },
  quotes: {
    born: ['PENDING', 'PENDING_AUTHORIZATION'],
    moves: {
      PENDING: ['PROCESSING', 'EXPIRED', 'PENDING_AUTHORIZATION'],
      PENDING_AUTHORIZATION: ['PROCESSING', 'FAILED', 'EXPIRED'],
      PROCESSING: ['COMPLETED', 'FAILED'],
      COMPLETED: ['FAILED'],
    },
  },
  cardTransactions: {
    born: ['AUTHORIZED', 'SETTLED', 'EXCEPTION'],
    moves: {
      AUTHORIZED: ['PARTIALLY_SETTLED', 'SETTLED', 'VOIDED', 'EXCEPTION'],
      PARTIALLY_SETTLED: ['SETTLED', 'EXCEPTION'],
      SETTLED: ['EXCEPTION'],
      EXCEPTION: ['SETTLED', 'VOIDED'],
    },
  },
  agentActions: {
    born: ['APPROVED', 'PENDING_APPROVAL'],
    moves: {PENDING_APPROVAL: ['APPROVED', 'REJECTED', 'FAILED']},
  },
} satisfies Record<string, {born: string[]; moves: Record<string, string[]>}>

type Table = keyof typeof MACHINES
const legal = (table: Table, from: string, to: string) =>
  ((MACHINES[table].moves as Record<string, string[]>)[from] ?? []).includes(to)

/** Whether `to` can be reached from `from` by legal moves (objects with no events may take several between looks). */
function reachable(table: Table, from: string, to: string): boolean {
  const seen = new Set([from])
  const todo = [from]
  while (todo.length) {
    const s = todo.pop()!
    for (const n of (MACHINES[table].moves as Record<string, string[]>)[s] ?? []) {
      if (n === to) return true
      if (seen.has(n)) continue
      seen.add(n)
      todo.push(n)
    }
  }
  return false
}

/** The event types that announce a status of each kind of object (refund and balance events are not status events). */
const STATUS_EVENT: Partial<Record<Table, RegExp>> = {
  transactions: /^(INCOMING|OUTGOING)_PAYMENT\.(?!REFUND_)([A-Z_]+)$/,
  cardTransactions: /^CARD_TRANSACTION\.([A-Z_]+)$/,
}

interface Doc {
  id: string
  status: string
  authorizedAmount?: {amount: number}
  settledAmount?: {amount: number}
  refundedAmount?: {amount: number}
}
/** What a card transaction's re-fired event must change when its status does not (§6: returns re-fire SETTLED with new amounts). */
const amounts = (d: Doc) => [d.authorizedAmount?.amount, d.settledAmount?.amount, d.refundedAmount?.amount].join('/')

/**
 * Watches every money object's status and the event log between two looks (one model step):
 * - every status an object is born in, and every move, is legal in MACHINES;
 * - each status change of a transaction or card transaction has exactly one event saying so
 *   (`<X>_PAYMENT.<STATUS>`, `CARD_TRANSACTION.<STATUS>` with that status in its data); an event that
 *   repeats a status changes the amounts (a return), never nothing; the last event says the status held now.
 * `look()` returns the violations found since the last look (empty when all is well).
 */
export class TransitionWatch {
  private readonly last: Record<Table, Map<string, Doc>> = {
    transactions: new Map(),
    quotes: new Map(),
    cardTransactions: new Map(),
    agentActions: new Map(),
  }
  private seq: number
  /** Moves seen so far, per table and edge ("PROCESSING->COMPLETED"), so a test can show what it covered. */
  readonly moves: Record<string, number> = {}
  events = 0

  constructor(
    private readonly db: Db,
    /** The model's customers: only their objects are watched (read by the indexed customer column, so a look stays cheap). */
    private readonly customers: string[],
  ) {
    this.seq = Number(db.sql.row('SELECT max(seq) FROM events')?.[0] ?? 0)
    for (const table of Object.keys(this.last) as Table[])
      for (const d of this.current(table)) this.last[table].set(d.id, d)
  }

  private current(table: Table): Doc[] {
    // A quote keeps its customer inside `_` (its customer_id column is empty).
    const who = table === 'quotes' ? "json_extract(doc, '$._.customerId')" : 'customer_id'
    const marks = this.customers.map(() => '?').join(',')
    return this.db.docs<Doc>(
      this.db.sql.rows(`SELECT doc FROM "${table}" WHERE ${who} IN (${marks})`, ...this.customers),
    )
  }

  look(): string[] {
    const bad: string[] = []
    const events = this.db
      .docs<{seq: number; event: {id: string; type: string; data: Doc}}>(
        this.db.sql.rows('SELECT doc FROM events WHERE seq > ? ORDER BY seq', this.seq),
      )
      .map((e) => ({...e.event, object: objectOfEvent(e.event)}))
    this.seq = Number(this.db.sql.row('SELECT max(seq) FROM events')?.[0] ?? this.seq)
    this.events += events.length
    for (const table of Object.keys(this.last) as Table[]) {
      const was = this.last[table]
      const pattern = STATUS_EVENT[table]
      for (const now of this.current(table)) {
        const before = was.get(now.id)
        const said = pattern ? events.filter((e) => e.object === now.id && pattern.test(e.type)) : []
        if (pattern) this.followEvents(table, before, now, said, bad)
        else if (!before && !MACHINES[table].born.some((b) => b === now.status || reachable(table, b, now.status)))
          bad.push(`${now.id} first seen ${now.status}: not reachable from a state a ${table} starts in`)
        else if (before && before.status !== now.status) {
          if (!reachable(table, before.status, now.status))
            bad.push(`${now.id} ${before.status}->${now.status}: not a legal move`)
          this.count(table, before.status, now.status)
        }
        was.set(now.id, now)
      }
    }
    return bad
  }

  /** The path the events of one object describe, checked against the machine and against where the object is now. */
  private followEvents(
    table: Table,
    before: Doc | undefined,
    now: Doc,
    said: Array<{type: string; data: Doc}>,
    bad: string[],
  ) {
    let at = before
    for (const e of said) {
      const status = STATUS_EVENT[table]!.exec(e.type)!.at(-1)!
      if (e.data.status !== status) bad.push(`${now.id}: ${e.type} carries status ${e.data.status}`)
      if (!at) {
        if (!MACHINES[table].born.includes(status))
          bad.push(`${now.id} born ${status}: not a state a ${table} starts in`)
      } else if (at.status === status) {
        // The same status again: only a card transaction's re-fire with new amounts (a return) says anything new.
        if (table !== 'cardTransactions' || amounts(at) === amounts(e.data))
          bad.push(`${now.id}: a second ${e.type} for one ${status} (${amounts(e.data)})`)
      } else {
        if (!legal(table, at.status, status)) bad.push(`${now.id} ${at.status}->${status}: not a legal move`)
        this.count(table, at.status, status)
      }
      at = e.data
    }
    if (!at) {
      // Born without an event: only the states whose events the contract does not list (an outgoing payment starts silently).
      if (!MACHINES[table].born.includes(now.status))
        bad.push(`${now.id} born ${now.status}: not a state a ${table} starts in`)
      if (table === 'cardTransactions' || now.status === 'COMPLETED')
        bad.push(`${now.id} born ${now.status} with no event`)
    } else if (at.status !== now.status)
      bad.push(`${now.id} is ${now.status} but its last event said ${at.status}: a move without its event`)
  }

  private count(table: Table, from: string, to: string) {
    const k = `${table} ${from}->${to}`
    this.moves[k] = (this.moves[k] ?? 0) + 1
  }
}

/**
 * The seeds and steps per seed of a seeded model test: `npm test` runs the defaults; the bench
 * (test/bench/money.mjs) asks for more with SVC_MONEY_SEED_COUNT and SVC_MONEY_STEPS, and
 * SVC_MONEY_SEEDS=5 (or 3,5,9) replays those seeds alone.
 */
export function modelRuns(seeds: number, steps: number): {seeds: number[]; steps: number} {
  const list = process.env.SVC_MONEY_SEEDS?.split(',').map(Number)
  const count = Number(process.env.SVC_MONEY_SEED_COUNT ?? seeds)
  return {
    seeds: list ?? Array.from({length: count}, (_, i) => i + 1),
    steps: Number(process.env.SVC_MONEY_STEPS ?? steps),
  }
}

/** The report of a broken invariant: the seed that replays it and the steps that led there. */
export function replayNote(file: string, seed: number, log: string[], problems: string[]): string {
  return [
    `seed ${seed}, step ${log.length - 1}: ${problems.join('; ')}`,
    `replay: SVC_MONEY_SEEDS=${seed} npx vitest run ${file}`,
    'steps:',
    ...log.map((l, i) => `  ${i}: ${l}`),
  ].join('\n')
}
