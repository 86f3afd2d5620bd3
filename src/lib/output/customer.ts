import type {Customer} from '../schemas/customer.js'
import type {Output} from './output.js'
import {relativeTime} from './format.js'
import {renderKeyValue, renderTable} from './render.js'

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

export async function renderCustomerList(out: Output, list: {data: Customer[]; hasMore: boolean; totalCount?: number; nextCursor?: string}): Promise<void> {
  await renderTable(out, ['ID', 'TYPE', 'NAME', 'STATUS', 'PLATFORM ID', 'CREATED'], list.data.map((c) => [c.id, c.customerType, nameOf(c), statusOf(c), c.platformCustomerId, relativeTime(c.createdAt)]))
  if (list.hasMore) out.info(out.dim(`More results: --cursor ${list.nextCursor} (or --all). ${list.totalCount ?? ''} in total.`))
}
