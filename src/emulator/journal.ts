import {closeSync, existsSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, renameSync, writeSync, fsyncSync} from 'node:fs'
import {join} from 'node:path'

export interface Record {
  /** collection */
  c: string
  /** key */
  k: string
  /** value; absent means delete */
  v?: unknown
}

/**
 * Append-only journal of upserts and deletes, one JSON line each. Writes are grouped: every record
 * appended in the same tick goes out in one write + fdatasync, and `sync()` resolves only after
 * that, so the server acknowledges a write only once it is on disk. A torn last line (kill -9
 * mid-write) is dropped at replay, never fatal.
 */
export class Journal {
  private fd: number
  private pending: string[] = []
  private waiters: Array<() => void> = []
  private scheduled = false
  readonly path: string

  constructor(dir: string) {
    this.path = join(dir, 'journal.ndjson')
    this.fd = openSync(this.path, 'a', 0o600)
  }

  /** Reads every intact record; truncates a torn tail so later appends start on a clean line. */
  static replay(dir: string): {records: Record[]; dropped: number} {
    const path = join(dir, 'journal.ndjson')
    if (!existsSync(path)) return {records: [], dropped: 0}
    const text = readFileSync(path, 'utf8')
    const records: Record[] = []
    let dropped = 0
    let goodBytes = 0
    let offset = 0
    for (const line of text.split('\n')) {
      const lineBytes = Buffer.byteLength(line) + 1
      if (line.length) {
        try {
          const r = JSON.parse(line) as Record
          if (typeof r.c !== 'string' || typeof r.k !== 'string') throw new Error('bad record')
          records.push(r)
          goodBytes = offset + lineBytes
        } catch {
          dropped++
        }
      }
      offset += lineBytes
    }
    if (dropped && goodBytes < Buffer.byteLength(text)) {
      const fd = openSync(path, 'r+')
      ftruncateSync(fd, goodBytes)
      fsyncSync(fd)
      closeSync(fd)
    }
    return {records, dropped}
  }

  /** Rewrites the journal as one record per live entity (compaction at start-up). */
  static compact(dir: string, records: Record[]): void {
    const path = join(dir, 'journal.ndjson')
    const tmp = path + '.compact'
    const fd = openSync(tmp, 'w', 0o600)
    writeSync(fd, records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''))
    fsyncSync(fd)
    closeSync(fd)
    renameSync(tmp, path)
  }

  append(record: Record): void {
    this.pending.push(JSON.stringify(record))
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.flush())
    }
  }

  /** Resolves once everything appended so far is durable. */
  sync(): Promise<void> {
    if (!this.pending.length && !this.scheduled) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  flush(): void {
    this.scheduled = false
    const waiters = this.waiters
    this.waiters = []
    if (this.pending.length) {
      const chunk = this.pending.join('\n') + '\n'
      this.pending = []
      writeSync(this.fd, chunk)
      fdatasyncSync(this.fd)
    }
    for (const w of waiters) w()
  }

  close(): void {
    this.flush()
    closeSync(this.fd)
  }
}
