import {readFileSync} from 'node:fs'

/**
 * Reads a journal-era data dir's journal.ndjson (one `{c, k, v}` upsert or `{c, k}` delete per
 * line) into its live state: collection → id → document. Lines are split on bytes, so an invalid
 * UTF-8 byte cannot shift where the next record starts; a line that does not parse is counted as
 * dropped (the journal wrote a torn line only as its last one).
 */
export function readJournal(path: string): {records: Map<string, Map<string, unknown>>; dropped: number} {
  const bytes = readFileSync(path)
  const records = new Map<string, Map<string, unknown>>()
  let dropped = 0
  let start = 0
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start)
    if (end < 0) end = bytes.length
    if (end > start) {
      try {
        const r = JSON.parse(bytes.subarray(start, end).toString('utf8')) as {c?: unknown; k?: unknown; v?: unknown}
        if (typeof r.c !== 'string' || typeof r.k !== 'string') throw new Error('not a record')
        let m = records.get(r.c)
        if (!m) records.set(r.c, (m = new Map()))
        if (r.v === undefined) m.delete(r.k)
        else m.set(r.k, r.v)
      } catch {
        dropped++
      }
    }
    start = end + 1
  }
  return {records, dropped}
}
