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
import {apiRequest, type ApiRequest} from './request.js'
import {listPaged, listRequest} from './paging.js'

export type Channel = 'email' | 'phone'

export function createKycLink(customerId: string, body: {redirectUri?: string}) {
  return apiRequest(
    {method: 'POST', path: ['customers', customerId, 'kyc-link'], body, idempotency: {}},
    kycLinkSchema,
    'verification link',
  )
}

export function sendContactCode(customerId: string, channel: Channel): ApiRequest<void> {
  return {method: 'POST', path: ['customers', customerId, `verify-${channel}`]}
}

export function confirmContactCode(customerId: string, channel: Channel, code: string) {
  return apiRequest(
    {method: 'POST', path: ['customers', customerId, `verify-${channel}`, 'confirm'], body: {code}},
    customerSchema,
    'customer',
  )
}

export function addBeneficialOwner(body: BeneficialOwnerCreate) {
  return apiRequest({method: 'POST', path: ['beneficial-owners'], body}, beneficialOwnerSchema, 'beneficial owner')
}

export function updateBeneficialOwner(id: string, body: BeneficialOwnerUpdate) {
  return apiRequest({method: 'PATCH', path: ['beneficial-owners', id], body}, beneficialOwnerSchema, 'beneficial owner')
}

/**
 * The published contract replaces `personalInfo.address` whole (line1 and country required), so a
 * change of some address fields is completed from the owner as it stands (one GET) before it is sent.
 */
export async function withStoredAddress(
  client: ApiClient,
  req: ReturnType<typeof updateBeneficialOwner>,
): Promise<ReturnType<typeof updateBeneficialOwner>> {
  const body = req.body as BeneficialOwnerUpdate
  const address = (body.personalInfo as {address?: Record<string, unknown>} | undefined)?.address
  if (!address || (address.line1 !== undefined && address.country !== undefined)) return req
  const current = await client.call(getBeneficialOwner(req.path[1]))
  const stored = (current.personalInfo as {address?: Record<string, unknown>} | undefined)?.address ?? {}
  return {...req, body: {...body, personalInfo: {...body.personalInfo, address: {...stored, ...address}}}}
}

export function getBeneficialOwner(id: string) {
  return apiRequest({method: 'GET', path: ['beneficial-owners', id]}, beneficialOwnerSchema, 'beneficial owner')
}

export function listBeneficialOwners(customerId: string) {
  return listRequest(['beneficial-owners'], {customerId}, beneficialOwnerSchema, 'beneficial owner list')
}

export interface DocumentFile {
  name: string
  bytes: Uint8Array
  type: string
}

/** POST /documents, or PUT /documents/{id} to replace one (api-gaps 10.1 #2): multipart, encoded when sent. */
export function sendDocument(fields: Record<string, string | undefined>, file: DocumentFile, replaceId?: string) {
  return apiRequest(
    {
      method: replaceId ? 'PUT' : 'POST',
      path: replaceId ? ['documents', replaceId] : ['documents'],
      upload: {fields, file},
    },
    documentSchema,
    'document',
  )
}

export function listDocuments(documentHolder: string) {
  return listRequest(['documents'], {documentHolder}, documentSchema, 'document list')
}

export function submitVerification(customerId: string) {
  return apiRequest({method: 'POST', path: ['verifications'], body: {customerId}}, verificationSchema, 'verification')
}

export function listVerifications(customerId: string) {
  return listRequest(['verifications'], {customerId}, verificationSchema, 'verification list')
}

/** The newest submission (the list is newest first), or undefined before the first one. */
export async function latestVerification(client: ApiClient, customerId: string) {
  const list = await listPaged(client, listVerifications(customerId), {limit: 1})
  return list.data[0]
}
