import {afterAll, beforeEach, describe, expect, it} from 'vitest'
import {Db} from '../../../src/emulator/store/db.js'
import type {StoredEvent} from '../../../src/emulator/store/events.js'
import {
  RETENTION_SQL,
  oldestRetained,
  pruneEvents,
  pruneIdempotency,
  stampIdempotency,
} from '../../../src/emulator/store/retention.js'
import {tempDir} from '../../helpers/temp-dirs.js'

let db: Db
const dbs: Db[] = []
beforeEach(() => {
  db = Db.open(tempDir('svc-retention-'))
  dbs.push(db)
})
afterAll(async () => {
  for (const d of dbs) await d.close()
})

const T0 = Date.parse('2026-06-01T00:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

function event(seq: number, delivery: StoredEvent['delivery'], at: number): void {
  const stored: StoredEvent = {
    seq,
    event: {id: `Webhook:${seq}`, type: 'TEST', timestamp: iso(at - 1000)},
    delivery,
    attempts: delivery === 'none' ? [] : [{at: iso(at), url: 'http://127.0.0.1:9/h', status: 200}],
  }
  db.put('events', stored.event.id, stored)
}

const eventIds = () => db.sql.rows('SELECT seq FROM events ORDER BY seq').map((r) => Number(r[0]))
const keys = () => db.sql.rows('SELECT id FROM idempotency ORDER BY id').map((r) => String(r[0]))

describe('retention in the store', () => {
  it('prunes settled events by the time of their last attempt (or their own, never addressed), never a pending one nor the newest', () => {
    event(1, 'delivered', T0)
    event(2, 'dead', T0 + 1)
    event(3, 'none', T0 + 2)
    event(4, 'pending', T0) // pending: no settled_at, kept however old
    event(5, 'delivered', T0 + 10_000) // younger than the cut
    event(6, 'delivered', T0) // the newest: kept, event numbers continue from it
    expect(oldestRetained(db).events).toBe(T0 + 2 - 1000) // 3: never addressed, counted from when it happened
    expect(pruneEvents(db, T0 + 5_000, 500)).toBe(3)
    expect(eventIds()).toEqual([4, 5, 6])
    // The newest is the oldest settled now, but never expires: the next expiry is 5's.
    expect(oldestRetained(db).events).toBe(T0 + 10_000)
  })

  it('deletes at most `limit` rows per batch, oldest first', () => {
    for (let i = 1; i <= 7; i++) event(i, 'delivered', T0 + i)
    expect(pruneEvents(db, T0 + 100, 3)).toBe(3)
    expect(eventIds()).toEqual([4, 5, 6, 7])
    expect(pruneEvents(db, T0 + 100, 3)).toBe(3)
    expect(pruneEvents(db, T0 + 100, 3)).toBe(0) // 7 is the newest
    expect(eventIds()).toEqual([7])
  })

  it('prunes idempotency answers stored before the cut; one from before retention existed is first stamped, never pruned unseen', () => {
    db.put('idempotency', 'p|s|old', {hash: 'h', response: {status: 201}, at: T0})
    db.put('idempotency', 'p|s|young', {hash: 'h', response: {status: 201}, at: T0 + 60_000})
    db.put('idempotency', 'p|s|legacy', {hash: 'h', response: {status: 201}}) // no `at`
    expect(pruneIdempotency(db, T0 + 1, 500)).toBe(1)
    expect(keys()).toEqual(['p|s|legacy', 'p|s|young'])
    expect(stampIdempotency(db, T0 + 120_000, 500)).toBe(1)
    expect(db.get<{at: number}>('idempotency', 'p|s|legacy')!.at).toBe(T0 + 120_000)
    expect(pruneIdempotency(db, T0 + 120_000, 500)).toBe(1) // young goes; legacy counts from its stamp
    expect(keys()).toEqual(['p|s|legacy'])
    expect(oldestRetained(db).idempotency).toBe(T0 + 120_000)
  })

  it('every retention statement finds its rows by an index, with or without statistics: no full scan of events or idempotency', async () => {
    await db.unit(() => {
      for (let i = 1; i <= 3000; i++) event(i, i % 5 ? 'delivered' : 'pending', T0 + i)
      for (let i = 1; i <= 3000; i++)
        db.put('idempotency', `p|s|${i}`, {hash: 'h', response: {status: 201}, at: T0 + i})
    })
    const plans = () =>
      Object.entries(RETENTION_SQL).map(([name, sql]) => {
        const params = Array.from({length: (sql.match(/\?/g) ?? []).length}, () => 1)
        return {name, plan: db.sql.rows(`EXPLAIN QUERY PLAN ${sql}`, ...params).map((r) => String(r[3]))}
      })
    // The sandbox runs no ANALYZE; a database given statistics elsewhere (a snapshot) must plan the same way.
    for (const stats of ['none', 'analyzed']) {
      if (stats === 'analyzed') db.sql.write('ANALYZE').run()
      for (const {name, plan} of plans()) {
        const what = `${name} (${stats}): ${plan.join(' | ')}`
        // SQLite says SCAN <table> for a full read; SEARCH ... USING (COVERING) INDEX for an index lookup.
        expect(
          plan.filter((line) => /^SCAN (events|idempotency)$/.test(line)),
          what,
        ).toEqual([])
        const index =
          name === 'newestEvent' ? 'events_seq' : /event/i.test(name) ? 'events_settled_at' : 'idempotency_stored_at'
        expect(
          plan.some((line) => line.includes(`INDEX ${index}`)),
          what,
        ).toBe(true)
        expect(
          plan.some((line) => /TEMP B-TREE/.test(line)),
          what,
        ).toBe(false)
      }
    }
  })
})
