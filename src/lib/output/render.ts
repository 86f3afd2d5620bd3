import type {Output} from './output.js'
import type {EmptyList} from './table.js'

export type Row = Array<[label: string, value: string | number | boolean | undefined | null]>

/** A key/value block: labels aligned, empty values skipped. */
export function renderKeyValue(out: Output, rows: Row): void {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '')
  const width = Math.max(0, ...shown.map(([k]) => k.length))
  for (const [k, v] of shown) out.print(`${out.dim(k.padEnd(width))}  ${String(v)}`)
}

/**
 * A table without named columns (help, profiles): fitted to the terminal like every list (columns
 * kept left to right), tab-separated with a header line when piped so `cut` and `awk` work on it.
 */
export async function renderTable(
  out: Output,
  head: string[],
  rows: Array<Array<string | number | undefined>>,
  empty?: EmptyList,
): Promise<void> {
  const {ListWriter} = await import('./table.js')
  const columns = head.map((header, i) => ({
    key: header.toLowerCase().replaceAll(' ', '-'),
    header: header.toUpperCase(),
    get: (r: Array<string | number | undefined>) => r[i],
  }))
  const writer = new ListWriter(out, columns, {format: 'table', wide: false, empty})
  writer.rows(rows)
  await writer.end()
}
