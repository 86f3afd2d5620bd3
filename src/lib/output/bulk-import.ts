import {ExitCode} from '../exit-codes.js'
import {SvcError} from '../errors.js'
import type {ImportJob} from '../schemas/bulk-import.js'
import type {Output} from './output.js'
import {renderKeyValue, renderTable} from './render.js'

/** The job: its counts, then each bad row with the fields to fix (stdout), a summary line on stderr. */
export async function renderImportJob(out: Output, job: ImportJob): Promise<void> {
  const p = job.progress
  renderKeyValue(out, [
    ['Job', job.id],
    ['Status', job.status],
    ['Rows', `${p.processed}/${p.total} processed`],
    ['Created', p.successful],
    ['Failed', p.failed],
    ['Completed', job.completedAt],
  ])
  const errors = job.errors ?? []
  if (errors.length) {
    out.print()
    await renderTable(
      out,
      ['ROW', 'ID', 'CODE', 'PROBLEM'],
      errors.map((e) => {
        const fields = (e.details?.errors as Array<{field: string; message: string}> | undefined) ?? []
        const problem = fields.length ? fields.map((f) => `${f.field}: ${f.message}`).join('; ') : e.message
        return [e.details?.row as number | undefined, e.correlationId, e.code, problem]
      }),
    )
  }
  if (!('status' in job) || !['COMPLETED', 'FAILED'].includes(job.status)) return
  if (p.failed)
    out.warn(`${p.successful} customer(s) created, ${p.failed} row(s) refused (listed above with the columns to fix)`)
  else out.success(`${p.successful} customer(s) created`)
}

/** A job that created nothing is a failure (exit 1); a job with some refused rows still completed. */
export function importOutcome(job: ImportJob): void {
  if (job.status === 'FAILED') {
    const errors = job.errors ?? []
    throw new SvcError({
      code: 'BULK_IMPORT_FAILED',
      message: `${job.id} created no customer: all ${job.progress.failed} row(s) were refused`,
      exitCode: ExitCode.FAILED,
      // The first rows only: the whole list is `svc customers import-status <job> --json`.
      details: {
        jobId: job.id,
        status: job.status,
        progress: job.progress,
        errors: errors.slice(0, 20),
        moreErrors: Math.max(0, errors.length - 20),
      },
      hint: `See every refused row with \`svc customers import-status ${job.id}\`.`,
    })
  }
}
