import {customerSchema} from '../schemas/customer.js'
import {
  beneficialOwnerSchema,
  documentSchema,
  kycLinkSchema,
  verificationSchema,
  type BeneficialOwnerCreate,
  type BeneficialOwnerUpdate,
} from '../schemas/kyc.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'
import {multipartBody} from './multipart.js'

export type Channel = 'email' | 'phone'

export async function createKycLink(client: ApiClient, customerId: string, body: {redirectUri?: string}, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['customers', customerId, 'kyc-link'], body, idempotencyKey})
  return client.parse(kycLinkSchema, res.body, 'verification link')
}

export async function sendContactCode(client: ApiClient, customerId: string, channel: Channel): Promise<void> {
  await client.request({method: 'POST', path: ['customers', customerId, `verify-${channel}`]})
}

export async function confirmContactCode(client: ApiClient, customerId: string, channel: Channel, code: string) {
  const res = await client.request({method: 'POST', path: ['customers', customerId, `verify-${channel}`, 'confirm'], body: {code}})
  return client.parse(customerSchema, res.body, 'customer')
}

export async function addBeneficialOwner(client: ApiClient, body: BeneficialOwnerCreate) {
  const res = await client.request({method: 'POST', path: ['beneficial-owners'], body})
  return client.parse(beneficialOwnerSchema, res.body, 'beneficial owner')
}

export async function updateBeneficialOwner(client: ApiClient, id: string, body: BeneficialOwnerUpdate) {
  const res = await client.request({method: 'PATCH', path: ['beneficial-owners', id], body})
  return client.parse(beneficialOwnerSchema, res.body, 'beneficial owner')
}

export async function listBeneficialOwners(client: ApiClient, customerId: string, page: PageOptions) {
  return listPaged(client, ['beneficial-owners'], {customerId}, beneficialOwnerSchema, page, 'beneficial owner list')
}

export interface DocumentFile {
  name: string
  bytes: Uint8Array
  type: string
}

/** POST /documents, or PUT /documents/{id} to replace one (api-gaps 10.1 #2). */
export async function sendDocument(client: ApiClient, fields: Record<string, string | undefined>, file: DocumentFile, replaceId?: string) {
  const {rawBody, contentType} = await multipartBody(fields, file)
  const res = await client.request({
    method: replaceId ? 'PUT' : 'POST',
    path: replaceId ? ['documents', replaceId] : ['documents'],
    rawBody,
    headers: {'content-type': contentType},
  })
  return client.parse(documentSchema, res.body, 'document')
}

export async function listDocuments(client: ApiClient, documentHolder: string, page: PageOptions) {
  return listPaged(client, ['documents'], {documentHolder}, documentSchema, page, 'document list')
}

export async function submitVerification(client: ApiClient, customerId: string) {
  const res = await client.request({method: 'POST', path: ['verifications'], body: {customerId}})
  return client.parse(verificationSchema, res.body, 'verification')
}

/** The newest submission (the list is newest first), or undefined before the first one. */
export async function latestVerification(client: ApiClient, customerId: string) {
  const list = await listPaged(client, ['verifications'], {customerId}, verificationSchema, {limit: 1}, 'verification list')
  return list.data[0]
}
