import {importAcceptedSchema, importJobSchema} from '../schemas/bulk-import.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'

export function uploadCustomerCsv(file: {name: string; bytes: Uint8Array}) {
  return apiRequest(
    {method: 'POST', path: ['customers', 'bulk', 'csv'], upload: {fields: {}, file: {...file, type: 'text/csv'}}},
    importAcceptedSchema,
    'bulk import job',
  )
}

export async function getImportJob(client: ApiClient, jobId: string) {
  const res = await client.request({method: 'GET', path: ['customers', 'bulk', 'jobs', jobId]})
  return client.parse(importJobSchema, res.body, 'bulk import job')
}
