import type {Output} from './output.js'

export type Row = Array<[label: string, value: string | number | boolean | undefined | null]>

/** A key/value block: labels aligned, empty values skipped. */
export function renderKeyValue(out: Output, rows: Row): void {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '')
  const width = Math.max(0, ...shown.map(([k]) => k.length))
  for (const [k, v] of shown) out.print(`${out.dim(k.padEnd(width))}  ${String(v)}`)
}

/**
 * A table: boxed with cli-table3 on a terminal; tab-separated with a header line when piped, so
 * `cut` and `awk` work on it.
 */
export async function renderTable(out: Output, head: string[], rows: Array<Array<string | number | undefined>>): Promise<void> {
  const cells = rows.map((r) => r.map((c) => (c === undefined || c === null ? '' : String(c))))
  if (!out.stdoutIsTTY) {
    out.print(head.join('\t'))
    for (const r of cells) out.print(r.join('\t'))
    return
  }
  const {default: Table} = await import('cli-table3')
  const table = new Table({head: head.map((h) => out.bold(h)), style: {head: [], border: []}})
  table.push(...cells)
  out.print(table.toString())
}
