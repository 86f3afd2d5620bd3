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
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

export type Channel = 'email' | 'phone'

export function createKycLink(customerId: string, body: {redirectUri?: string}) {
  return apiRequest(
    {method: 'POST', path: ['customers', customerId, 'kyc-link'], body, idempotency: {}},
    kycLinkSchema,
    'verification link',
  )
}

export async function sendContactCode(client: ApiClient, customerId: string, channel: Channel): Promise<void> {
  await client.request({method: 'POST', path: ['customers', customerId, `verify-${channel}`]})
}

export async function confirmContactCode(client: ApiClient, customerId: string, channel: Channel, code: string) {
  const res = await client.request({
    method: 'POST',
    path: ['customers', customerId, `verify-${channel}`, 'confirm'],
    body: {code},
  })
  return client.parse(customerSchema, res.body, 'customer')
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
  const current = await client.request({method: 'GET', path: req.path})
  const stored =
    (
      client.parse(beneficialOwnerSchema, current.body, 'beneficial owner').personalInfo as
        {address?: Record<string, unknown>} | undefined
    )?.address ?? {}
  return {...req, body: {...body, personalInfo: {...body.personalInfo, address: {...stored, ...address}}}}
}

export async function listBeneficialOwners(client: ApiClient, customerId: string, page: PageOptions) {
  return listPaged(client, ['beneficial-owners'], {customerId}, beneficialOwnerSchema, page, 'beneficial owner list')
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

export async function listDocuments(client: ApiClient, documentHolder: string, page: PageOptions) {
  return listPaged(client, ['documents'], {documentHolder}, documentSchema, page, 'document list')
}

export function submitVerification(customerId: string) {
  return apiRequest({method: 'POST', path: ['verifications'], body: {customerId}}, verificationSchema, 'verification')
}

/** The newest submission (the list is newest first), or undefined before the first one. */
export async function latestVerification(client: ApiClient, customerId: string) {
  const list = await listPaged(
    client,
    ['verifications'],
    {customerId},
    verificationSchema,
    {limit: 1},
    'verification list',
  )
  return list.data[0]
}
