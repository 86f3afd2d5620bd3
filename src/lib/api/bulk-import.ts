import {importAcceptedSchema, importJobSchema} from '../schemas/bulk-import.js'
import type {ApiClient} from './client.js'
import {multipartBody} from './multipart.js'

export async function uploadCustomerCsv(client: ApiClient, file: {name: string; bytes: Uint8Array}) {
  const {rawBody, contentType} = await multipartBody({}, {...file, type: 'text/csv'})
  const res = await client.request({method: 'POST', path: ['customers', 'bulk', 'csv'], rawBody, headers: {'content-type': contentType}})
  return client.parse(importAcceptedSchema, res.body, 'bulk import job')
}

export async function getImportJob(client: ApiClient, jobId: string) {
  const res = await client.request({method: 'GET', path: ['customers', 'bulk', 'jobs', jobId]})
  return client.parse(importJobSchema, res.body, 'bulk import job')
}
