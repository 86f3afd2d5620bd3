import type {Customer} from '../schemas/customer.js'
import type {Output} from './output.js'
import {relativeTime} from './format.js'
import {renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

export function statusOf(c: Customer): string {
  return (c.customerType === 'BUSINESS' ? c.kybStatus : c.kycStatus) ?? '-'
}

export function nameOf(c: Customer): string {
  return c.customerType === 'BUSINESS' ? (c.businessInfo?.legalName ?? '-') : (c.fullName ?? '-')
}

export function renderCustomer(out: Output, c: Customer): void {
  const cv = c.contactVerification
  renderKeyValue(out, [
    ['id', c.id],
    ['type', c.customerType],
    ['name', nameOf(c)],
    [c.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus', statusOf(c)],
    ['platformCustomerId', c.platformCustomerId],
    ['email', c.email],
    ['phone', c.phoneNumber],
    ['region', c.region],
    ['currencies', c.currencies?.join(', ')],
    ['contactVerification', cv ? Object.entries(cv).map(([k, v]) => `${k} ${v}`).join(', ') : undefined],
    ['endUserTerms', c.endUserTermsConsent ? `accepted v${c.endUserTermsConsent.termsVersion}` : undefined],
    ['umaAddress', c.umaAddress],
    ['created', `${c.createdAt} (${relativeTime(c.createdAt)})`],
    ['deleted', c.isDeleted ? 'yes' : undefined],
  ])
}

export const customerColumns: Array<Column<Customer>> = [
  {key: 'id', header: 'ID', get: (c) => c.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (c) => c.customerType, priority: 4},
  {key: 'name', header: 'NAME', get: nameOf, priority: 1},
  {key: 'status', header: 'STATUS', get: statusOf, priority: 2, noTruncate: true},
  {key: 'platform-id', header: 'PLATFORM ID', get: (c) => c.platformCustomerId, priority: 5},
  {key: 'created', header: 'CREATED', get: (c) => relativeTime(c.createdAt), raw: (c) => c.createdAt, priority: 3},
]

export async function renderCustomerList(out: Output, list: {data: Customer[]; hasMore: boolean; totalCount?: number; nextCursor?: string}, view: ListView = {format: 'table', wide: false}): Promise<void> {
  await renderList(out, customerColumns, list, view)
}
