import {usageError} from '../errors.js'
import type {Output} from './output.js'
import {visibleWidth as visible} from './wrap.js'
import {io} from '../io.js'

export type Cell = string | number | boolean | undefined | null

/** One column of a list: how to read it from a row, how it is named, and how much it matters. */
export interface Column<T> {
  /** The name `--columns` takes: `id`, `status`, `platform-id`. */
  key: string
  header: string
  get: (row: T) => Cell
  /** The value for csv when the table's is made for eyes (ISO dates rather than "3m ago"). */
  raw?: (row: T) => Cell
  /**
   * A money column's currency: csv gives the amount as a plain number (`raw`, "2500.00") and the
   * currency in a column of its own after it (`SENT CURRENCY`), so a spreadsheet can add them up.
   */
  currency?: (row: T) => Cell
  /** Lower is kept longer when the terminal is narrow; defaults to the column's position. */
  priority?: number
  /** Ids and codes are never cut (a cut id cannot be pasted); free text is, with an ellipsis. */
  noTruncate?: boolean
  /** How narrow a cut text column may get (default 16): a column worth keeping even when cut short. */
  minWidth?: number
  /** A shorter form (IN for INCOMING), used only when the full forms do not fit the terminal. */
  short?: (row: T) => Cell
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** How a list is shown, after checking --columns against the list's own columns. */
export interface ListView {
  format: OutputFormat
  /** Column keys in the order asked for (`--columns`), or undefined for the defaults. */
  columns?: string[]
  wide: boolean
  /** What a terminal shows instead of a bare header when the list is empty. */
  empty?: EmptyList
}

/** "No customers." and where to go from there; shown on a terminal only (json stays `{data: []}`, csv keeps its header). */
export interface EmptyList {
  /** Plural noun: "customers", "transactions". */
  what: string
  /** The next step: "Create one with `svc customers create`." */
  hint?: string
}

const GAP = 2
// A text column cut below this says too little to be worth its place: drop a lower-priority one instead.
const MIN_SHRUNK = 16

/** Checks --output/--columns/--wide before any request (exit 2 naming the unknown columns). */
export function listView<T>(
  flags: {output?: string; columns?: string; wide?: boolean; json?: boolean},
  columns: Array<Column<T>>,
  empty?: EmptyList,
): ListView {
  const format = (flags.json ? 'json' : (flags.output ?? 'table')) as OutputFormat
  if (!flags.columns) return {format, wide: Boolean(flags.wide), empty}
  const asked = flags.columns
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean)
  const known = new Set(columns.map((c) => c.key))
  const unknown = asked.filter((c) => !known.has(c))
  if (unknown.length || !asked.length) {
    throw usageError(
      `--columns: unknown column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ') || '(none given)'}`,
      `Choose from: ${[...known].join(', ')}.`,
    )
  }
  return {format, columns: asked, wide: Boolean(flags.wide), empty}
}

function chosen<T>(columns: Array<Column<T>>, view: ListView): Array<Column<T>> {
  return view.columns ? view.columns.map((k) => columns.find((c) => c.key === k)!) : columns
}

const text = (v: Cell): string => (v === undefined || v === null ? '' : String(v))
const oneLine = (s: string): string => s.replace(/[\t\r\n]+/g, ' ')

/**
 * Writes a list the way it was asked for. ndjson, csv and tab-separated output are written row by
 * row (`rows` may be called once per page as pages arrive); the fitted table needs every row to
 * size its columns, so it is drawn at `end`. json is printed by the base command from the result.
 */
export class ListWriter<T> {
  private readonly cols: Array<Column<T>>
  private readonly buffered: T[] = []
  private headerDone = false

  constructor(
    private readonly out: Output,
    columns: Array<Column<T>>,
    private readonly view: ListView,
    private readonly width = io().stdout.columns,
  ) {
    this.cols = chosen(columns, view)
  }

  private get mode(): 'json' | 'ndjson' | 'csv' | 'tsv' | 'fit' {
    if (this.out.json || this.view.format === 'json') return 'json'
    if (this.view.format === 'ndjson' || this.view.format === 'csv') return this.view.format
    return this.out.stdoutIsTTY ? 'fit' : 'tsv'
  }

  rows(items: T[]): void {
    const mode = this.mode
    if (mode === 'json') return
    if (mode === 'ndjson') {
      for (const item of items) this.out.write(JSON.stringify(item) + '\n')
      return
    }
    if (mode === 'fit') {
      this.buffered.push(...items)
      return
    }
    const line =
      mode === 'csv'
        ? (cells: string[]) => cells.map(csvCell).join(',') + '\r\n'
        : (cells: string[]) => cells.map(oneLine).join('\t') + '\n'
    const split = (c: Column<T>) => mode === 'csv' && c.currency !== undefined
    if (!this.headerDone)
      this.out.write(line(this.cols.flatMap((c) => (split(c) ? [c.header, `${c.header} CURRENCY`] : [c.header]))))
    this.headerDone = true
    for (const item of items)
      this.out.write(
        line(
          this.cols.flatMap((c) => {
            const cell = text(mode === 'csv' && c.raw ? c.raw(item) : c.get(item))
            return split(c) ? [cell, text(c.currency!(item))] : [cell]
          }),
        ),
      )
  }

  async end(): Promise<void> {
    if (this.mode !== 'fit') {
      if (!this.headerDone && this.mode !== 'json' && this.mode !== 'ndjson') this.rows([])
      return
    }
    if (!this.buffered.length) {
      // A bare header reads as "something went wrong"; say so, and what to do next (stderr: a note, not data).
      const {what, hint} = this.view.empty ?? {what: 'results'}
      this.out.info(`No ${what}.`)
      if (hint) this.out.info(this.out.dim(hint))
      return
    }
    const width = this.view.wide ? Infinity : this.width || 80
    const cellsOf = (short: boolean) =>
      this.buffered.map((r) => this.cols.map((c) => oneLine(text(short && c.short ? c.short(r) : c.get(r)))))
    let cells = cellsOf(false)
    let fit = fitColumns(this.cols, cells, width, Boolean(this.view.columns))
    if (!fit.whole && this.cols.some((c) => c.short)) {
      cells = cellsOf(true)
      fit = fitColumns(this.cols, cells, width, Boolean(this.view.columns))
    }
    const {default: Table} = await import('cli-table3')
    const table = new Table({
      head: fit.keep.map((i) => this.out.bold(this.cols[i].header)),
      chars: BORDERLESS,
      style: {head: [], border: [], 'padding-left': 0, 'padding-right': 0},
      colWidths: fit.widths,
      wordWrap: false,
      truncate: '…',
    })
    table.push(...cells.map((row) => fit.keep.map((i) => row[i])))
    for (const line of table.toString().split('\n')) this.out.print(line.trimEnd())
    const hidden = this.cols.filter((_, i) => !fit.keep.includes(i)).map((c) => c.key)
    if (hidden.length) {
      const note = `(--wide shows ${hidden.length} more: ${hidden.join(', ')})`
      const width = this.width || 80
      this.out.info(this.out.dim([...note].length > width ? [...note].slice(0, width - 2).join('') + '…)' : note))
    }
  }
}

/** A list in one go: the rows, then the footer note about more pages. */
export async function renderList<T>(
  out: Output,
  columns: Array<Column<T>>,
  list: {data: T[]; hasMore?: boolean; nextCursor?: string; totalCount?: number},
  view: ListView,
): Promise<void> {
  const writer = new ListWriter(out, columns, view)
  writer.rows(list.data)
  await writer.end()
  if (list.hasMore)
    out.info(
      out.dim(
        `More results: --cursor ${list.nextCursor} (or --all).${list.totalCount ? ` ${list.totalCount} in total.` : ''}`,
      ),
    )
}

/** RFC 4180: quote when needed, double the quotes; a leading = + - @ is defused for spreadsheets. */
function csvCell(value: string): string {
  const safe = /^[=+\-@]./.test(value) && !/^-?\d/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replaceAll('"', '""')}"` : safe
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
}

/**
 * Which columns fit in `width`, and how wide each is: columns are kept by priority while their
 * minimum widths fit, then the widest truncatable ones give way one character at a time.
 */
export function fitColumns<T>(
  cols: Array<Column<T>>,
  rows: string[][],
  width: number,
  keepAll = false,
): {keep: number[]; widths: number[]; whole: boolean} {
  const natural = cols.map((c, i) => Math.max(visible(c.header), ...rows.map((r) => visible(r[i]))))
  const min = cols.map((c, i) =>
    c.noTruncate ? natural[i] : Math.min(natural[i], Math.max(visible(c.header), c.minWidth ?? MIN_SHRUNK)),
  )
  const byPriority = cols.map((c, i) => ({i, p: c.priority ?? i})).sort((a, b) => a.p - b.p || a.i - b.i)
  // When not everything fits, a column with nothing in it (every cell "-") gives its room to one that has.
  const crowded = natural.reduce((a, b) => a + b, 0) + GAP * (cols.length - 1) > width
  const blank = cols.map((_, i) => rows.every((r) => r[i] === '-' || r[i] === ''))
  const keep: number[] = []
  let used = 0
  for (const {i} of byPriority) {
    const need = min[i] + (keep.length ? GAP : 0)
    if (keep.length && crowded && blank[i] && !keepAll) continue
    if (keep.length && used + need > width && !keepAll) continue
    keep.push(i)
    used += need
  }
  keep.sort((a, b) => a - b)
  const widths = keep.map((i) => natural[i])
  let excess = widths.reduce((a, b) => a + b, 0) + GAP * (keep.length - 1) - width
  while (excess > 0) {
    let widest = -1
    for (let k = 0; k < keep.length; k++)
      if (widths[k] > min[keep[k]] && (widest < 0 || widths[k] > widths[widest])) widest = k
    if (widest < 0) break
    widths[widest]--
    excess--
  }
  // Every column shown, none cut: the short forms are not needed.
  return {keep, widths, whole: keep.length === cols.length && keep.every((i, k) => widths[k] >= natural[i])}
}
