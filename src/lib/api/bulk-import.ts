import {importAcceptedSchema, importJobSchema} from '../schemas/bulk-import.js'
import {apiRequest} from './request.js'

export function uploadCustomerCsv(file: {name: string; bytes: Uint8Array}) {
  return apiRequest(
    {method: 'POST', path: ['customers', 'bulk', 'csv'], upload: {fields: {}, file: {...file, type: 'text/csv'}}},
    importAcceptedSchema,
    'bulk import job',
  )
}

export function getImportJob(jobId: string) {
  return apiRequest({method: 'GET', path: ['customers', 'bulk', 'jobs', jobId]}, importJobSchema, 'bulk import job')
}
