import {MAX_CSV_BYTES} from '../../lib/customer-csv.js'
import {acceptImport, getImportJob, publicImportJob} from '../domain/bulk-import.js'
import {readUpload} from '../domain/kyc-documents.js'
import {invalid} from '../http-error.js'
import type {Router} from '../router.js'

/** Bulk customer import (api-gaps: BulkCustomerImportJob): upload a CSV, then follow the job. */
export function registerBulkImport(router: Router): void {
  router.handle('uploadCustomersCsv', async (req, ctx) => {
    const {fields, file} = await readUpload(req)
    const extra = Object.keys(fields)
    if (extra.length || !file) {
      throw invalid([
        ...(file ? [] : [{field: 'file', message: 'is required (a multipart part named `file` holding the CSV)'}]),
        ...extra.map((field) => ({field, message: 'is not a known part (send only `file`)'})),
      ])
    }
    if (file.bytes.length > MAX_CSV_BYTES)
      throw invalid([{field: 'file', message: `is ${file.bytes.length} bytes; at most ${MAX_CSV_BYTES}`}])
    let text: string
    try {
      text = new TextDecoder('utf-8', {fatal: true}).decode(file.bytes)
    } catch {
      throw invalid([{field: 'file', message: 'is not UTF-8 text'}])
    }
    const job = acceptImport(ctx, text)
    return {status: 202, body: {jobId: job.id, status: job.status}}
  })

  router.handle('getBulkCustomerImportJob', (req, ctx) => ({
    status: 200,
    body: publicImportJob(getImportJob(ctx, req.params.jobId)),
  }))
}
