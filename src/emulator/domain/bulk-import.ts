import {columnOf, readCustomerCsv, rowToCustomer} from '../../lib/customer-csv.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {customerCreateRequest} from '../../lib/schemas/customer.js'
import {birthDateErrors} from '../../lib/schemas/birth-date.js'
import type {SandboxContext} from '../context.js'
import {HttpError, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {createCustomer} from './customer-create.js'

/** Rows per unit of work: one chunk's customers and the job's progress commit together. */
export const CHUNK_ROWS = 100

export interface ImportError {
  correlationId: string
  code: string
  message: string
  details: Record<string, unknown>
}

export interface StoredImportJob {
  id: string
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED'
  progress: {total: number; processed: number; successful: number; failed: number}
  errors: ImportError[]
  completedAt?: string
  createdAt: string
  /** Internal: how many chunks there are. Never returned. */
  _: {chunks: number}
}

interface Chunk {
  rows: Array<{row: number; values: Record<string, string>}>
}

const chunkKey = (jobId: string, n: number) => `${jobId}#${n}`

export function publicImportJob(j: StoredImportJob): Record<string, unknown> {
  const {_: _internal, createdAt: _c, ...rest} = j
  return rest
}

export function getImportJob(ctx: SandboxContext, id: string): StoredImportJob {
  const j = ctx.db.get<StoredImportJob>('bulkImportJobs', id)
  if (!j) throw notFound('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk import job ${id}`)
  return j
}

/** Accepts a CSV (whole-file problems are a 400 listing each); rows are judged later, chunk by chunk. */
export function acceptImport(ctx: SandboxContext, text: string): StoredImportJob {
  const {file, errors} = readCustomerCsv(text)
  if (!file) throw invalid(errors)
  const chunks = Math.ceil(file.records.length / CHUNK_ROWS)
  const job: StoredImportJob = {
    id: newId('Job'),
    status: 'PENDING',
    progress: {total: file.records.length, processed: 0, successful: 0, failed: 0},
    errors: [],
    createdAt: ctx.iso(),
    _: {chunks},
  }
  ctx.db.put('bulkImportJobs', job.id, job)
  for (let n = 0; n < chunks; n++)
    ctx.db.put('bulkImportChunks', chunkKey(job.id, n), {
      rows: file.records.slice(n * CHUNK_ROWS, (n + 1) * CHUNK_ROWS),
    } satisfies Chunk)
  ctx.scheduler.after(0, 'bulk-import.chunk', {jobId: job.id, chunk: 0})
  return job
}

/** One row: the shared create schema (errors named by CSV column), then the same rules as POST /customers. */
function importRow(ctx: SandboxContext, r: Chunk['rows'][number]): ImportError | undefined {
  const correlationId = r.values.platformCustomerId ?? `row ${r.row}`
  const body = rowToCustomer(r.values)
  const parsed = customerCreateRequest.safeParse(body)
  const schemaErrors = parsed.success ? [] : fieldErrors(parsed.error)
  const dateErrors = birthDateErrors(body, ctx.iso()).filter((d) => !schemaErrors.some((e) => e.field === d.field))
  const errors = [...schemaErrors, ...dateErrors].map((e) => ({...e, field: columnOf(e.field)}))
  if (!r.values.platformCustomerId)
    errors.push({
      field: 'platformCustomerId',
      message: 'is required (it keeps a re-run from creating the customer twice)',
    })
  if (errors.length || !parsed.success) {
    return {
      correlationId,
      code: 'INVALID_INPUT',
      message: `Row ${r.row}: invalid ${errors.map((e) => e.field).join(', ')}`,
      details: {row: r.row, errors},
    }
  }
  try {
    createCustomer(ctx, parsed.data)
    return undefined
  } catch (e) {
    if (!(e instanceof HttpError)) throw e
    return {correlationId, code: e.code, message: `Row ${r.row}: ${e.message}`, details: {row: r.row, ...e.details}}
  }
}

function processChunk(ctx: SandboxContext, jobId: string, n: number): void {
  const job = ctx.db.get<StoredImportJob>('bulkImportJobs', jobId)
  const chunk = ctx.db.get<Chunk>('bulkImportChunks', chunkKey(jobId, n))
  if (!job || !chunk) return
  const p = {...job.progress}
  const errors = [...job.errors]
  for (const r of chunk.rows) {
    const problem = importRow(ctx, r)
    p.processed++
    if (problem) (p.failed++, errors.push(problem))
    else p.successful++
  }
  ctx.db.del('bulkImportChunks', chunkKey(jobId, n))
  const last = n + 1 >= job._.chunks
  const status = !last ? 'PROCESSING' : p.successful === 0 ? 'FAILED' : 'COMPLETED'
  const next: StoredImportJob = {...job, status, progress: p, errors, ...(last ? {completedAt: ctx.iso()} : {})}
  ctx.db.put('bulkImportJobs', jobId, next)
  if (last)
    ctx.webhooks.emit(status === 'COMPLETED' ? 'BULK_UPLOAD.COMPLETED' : 'BULK_UPLOAD.FAILED', publicImportJob(next))
  else ctx.scheduler.after(ctx.settings().bulkImportChunkDelayMs, 'bulk-import.chunk', {jobId, chunk: n + 1})
}

export function registerImportJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('bulk-import.chunk', (p) => processChunk(ctx, String(p.jobId), Number(p.chunk)))
}
