import {Journal, type Record} from './journal.js'

/**
 * In-memory collections (Map per collection) backed by the journal. Every put/del is journaled;
 * the server awaits `sync()` before answering, so acknowledged writes survive kill -9.
 * Values are plain JSON: store whole entities, not references.
 */
export class Db {
  private readonly collections = new Map<string, Map<string, unknown>>()
  readonly dropped: number

  constructor(private readonly journal: Journal | undefined, records: Record[] = [], dropped = 0) {
    for (const r of records) this.apply(r)
    this.dropped = dropped
  }

  static open(dir: string): Db {
    const {records, dropped} = Journal.replay(dir)
    const db = new Db(undefined, records, dropped)
    // Compact when the journal holds much more than the live state.
    const live = db.records()
    if (records.length > 1000 && records.length > live.length * 2) Journal.compact(dir, live)
    return new Db(new Journal(dir), live, dropped)
  }

  private apply(r: Record): void {
    let m = this.collections.get(r.c)
    if (!m) this.collections.set(r.c, (m = new Map()))
    if (r.v === undefined) m.delete(r.k)
    else m.set(r.k, r.v)
  }

  private records(): Record[] {
    const out: Record[] = []
    for (const [c, m] of this.collections) for (const [k, v] of m) out.push({c, k, v})
    return out
  }

  get<T>(coll: string, key: string): T | undefined {
    return this.collections.get(coll)?.get(key) as T | undefined
  }

  all<T>(coll: string): T[] {
    return [...(this.collections.get(coll)?.values() ?? [])] as T[]
  }

  count(coll: string): number {
    return this.collections.get(coll)?.size ?? 0
  }

  put<T>(coll: string, key: string, value: T): T {
    const r = {c: coll, k: key, v: value}
    this.apply(r)
    this.journal?.append(r)
    return value
  }

  del(coll: string, key: string): void {
    const r = {c: coll, k: key}
    this.apply(r)
    this.journal?.append(r)
  }

  sync(): Promise<void> {
    return this.journal?.sync() ?? Promise.resolve()
  }

  close(): void {
    this.journal?.close()
  }
}
