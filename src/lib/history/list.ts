import type {Output} from '../output/output.js'
import {renderTable} from '../output/render.js'
import {finishedBy, type HistoryRecord} from './store.js'

export interface ListedRecord extends HistoryRecord {
  /** For an unknown outcome that `svc history finish` settled: the record that did. */
  finishedBy?: number
}

/** The records asked for, newest last: --failed (failed), --unknown (unknown and not finished yet), the last `limit`. */
export function selectHistory(
  records: HistoryRecord[],
  opts: {failed?: boolean; unknown?: boolean; limit: number},
): ListedRecord[] {
  const listed = records.map((r): ListedRecord => {
    const by = r.outcome === 'unknown' ? finishedBy(records, r.n)?.n : undefined
    return by ? {...r, finishedBy: by} : r
  })
  const kept = listed.filter((r) =>
    opts.failed ? r.outcome === 'failed' : opts.unknown ? r.outcome === 'unknown' && !r.finishedBy : true,
  )
  return kept.slice(-opts.limit)
}

export async function renderHistory(out: Output, records: ListedRecord[]): Promise<void> {
  await renderTable(
    out,
    ['N', 'TIME', 'OUTCOME', 'STATUS', 'REQUEST', 'IDEMPOTENCY KEY', 'OBJECT', 'COMMAND'],
    records.map((r) => [
      r.n,
      r.time,
      r.finishedBy ? `unknown, finished by ${r.finishedBy}` : r.outcome,
      r.status ?? '-',
      `${r.method} ${r.path}`,
      r.idempotencyKey ?? '-',
      r.objectId ?? '-',
      r.command,
    ]),
    {what: 'writes in svc history', hint: 'Every command that sends a write records it here.'},
  )
  // Only what `svc history finish` can send again: a key, and the request kept whole.
  const open = records.filter((r) => r.outcome === 'unknown' && !r.finishedBy && r.resend)
  if (open.length)
    out.info(
      `Finish an unknown outcome exactly once with \`svc history finish <n>\` (${open.map((r) => r.n).join(', ')}).`,
    )
}
