import {readFileSync, statSync} from 'node:fs'
import {basename} from 'node:path'
import {getImportJob} from '../../api/bulk-import.js'
import type {Context} from '../../context.js'
import {MAX_CSV_BYTES, readCustomerCsv} from '../../customer-csv.js'
import {InputError, stillPending} from '../../errors.js'
import {TERMINAL_IMPORT_STATUSES, type ImportJob} from '../../schemas/bulk-import.js'
import {io} from '../../io.js'

/**
 * The CSV as it will be sent, refused (exit 2, nothing sent) when it cannot be read or when the
 * sandbox would refuse the whole file: not UTF-8, bad quoting, unknown/missing columns, ragged rows.
 * Row-level problems are the job's to report, row by row.
 */
export function readImportFile(path: string): {name: string; bytes: Uint8Array; rows: number} {
  let bytes: Buffer
  try {
    if (statSync(path).size > MAX_CSV_BYTES)
      throw new InputError([{field: 'file', message: `${path} is larger than ${MAX_CSV_BYTES} bytes`}])
    bytes = readFileSync(path)
  } catch (e) {
    if (e instanceof InputError) throw e
    throw new InputError([
      {field: 'file', message: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`},
    ])
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', {fatal: true}).decode(bytes)
  } catch {
    throw new InputError([{field: 'file', message: `${path} is not UTF-8 text`}])
  }
  const {file, errors} = readCustomerCsv(text)
  if (!file) throw new InputError(errors)
  return {name: basename(path), bytes: new Uint8Array(bytes), rows: file.records.length}
}

/** `[#####.....] 500/1000 · 3 failed`: a one-line bar redrawn on stderr, only on a terminal. */
export class ProgressBar {
  constructor(private readonly stream: NodeJS.WritableStream & {isTTY?: boolean; columns?: number}) {}
  get active(): boolean {
    return Boolean(this.stream.isTTY)
  }
  static line(p: ImportJob['progress'], width = 30): string {
    const done = p.total ? Math.floor((p.processed * width) / p.total) : 0
    return `[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${p.processed}/${p.total}${p.failed ? ` · ${p.failed} failed` : ''}`
  }
  draw(p: ImportJob['progress']): void {
    if (this.active) this.stream.write(`\r\x1b[2K${ProgressBar.line(p)}`)
  }
  clear(): void {
    if (this.active) this.stream.write('\r\x1b[2K')
  }
}

const POLL_MS = 250

/** Polls the job until COMPLETED or FAILED (returned either way); exit 8 at --timeout. */
export async function waitForImport(
  ctx: Context,
  jobId: string,
  stream: NodeJS.WritableStream & {isTTY?: boolean} = io().stderr,
): Promise<ImportJob> {
  const bar = new ProgressBar(stream)
  const started = ctx.now()
  try {
    for (;;) {
      const job = await ctx.client.call(getImportJob(jobId))
      bar.draw(job.progress)
      if (TERMINAL_IMPORT_STATUSES.has(job.status)) return job
      const remaining = ctx.remainingMs()
      if (remaining <= 0) {
        throw stillPending(
          `${jobId} is still ${job.status} (${job.progress.processed}/${job.progress.total}) after ${Math.round((ctx.now() - started) / 1000)}s`,
          `Run \`svc customers import-status ${jobId} --wait\`, or raise --timeout.`,
        )
      }
      await ctx.sleep(Math.min(POLL_MS, remaining))
    }
  } finally {
    bar.clear()
  }
}
