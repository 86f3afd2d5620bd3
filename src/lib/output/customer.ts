import type {Customer} from '../schemas/customer-response.js'
import type {Output} from './output.js'
import {relativeTime} from './format.js'
import {type Row, renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

export function statusOf(c: Customer): string {
  return (c.customerType === 'BUSINESS' ? c.kybStatus : c.kycStatus) ?? '-'
}

export function nameOf(c: Customer): string {
  return c.customerType === 'BUSINESS' ? (c.businessInfo?.legalName ?? '-') : (c.fullName ?? '-')
}

/** One line per value: arrays joined, an address or other object as `key value` pairs. */
export function describeValue(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined
  if (Array.isArray(v)) return v.map((x) => describeValue(x) ?? '').join(', ')
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => (describeValue(x) === undefined ? undefined : `${k} ${describeValue(x)}`))
      .filter(Boolean)
      .join(', ')
  }
  return String(v)
}

/** "1 Main St, Apt 2, Springfield, IL 62701, US": how an address is read. */
export function describeAddress(a: unknown): string | undefined {
  if (!a || typeof a !== 'object') return undefined
  const x = a as Record<string, string | undefined>
  const cityLine = [x.city, [x.state, x.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')
  return [x.line1, x.line2, cityLine, x.country].filter(Boolean).join(', ') || undefined
}

// Shown in the first block, or deliberately elsewhere; every other field the Service returns is
// listed after them, so nothing that can be set is hidden (the Service never returns `identifier`).
const SUMMARY = new Set([
  'id',
  'customerType',
  'fullName',
  'kycStatus',
  'kybStatus',
  'platformCustomerId',
  'email',
  'phoneNumber',
  'region',
  'currencies',
  'contactVerification',
  'endUserTermsConsent',
  'umaAddress',
  'createdAt',
  'updatedAt',
  'isDeleted',
  'businessInfo',
  'address',
])
const BUSINESS_FIRST = [
  'legalName',
  'doingBusinessAs',
  'country',
  'taxId',
  'incorporatedOn',
  'registrationNumber',
  'entityType',
  'primaryContactFirstName',
  'primaryContactLastName',
]

function termsLine(t: Record<string, string> | undefined): string | undefined {
  if (!t) return undefined
  const how = [t.acceptanceMethod, t.ipAddress ? `from ${t.ipAddress}` : undefined].filter(Boolean).join(' ')
  return `accepted v${t.termsVersion}${t.acceptedAt ? ` at ${t.acceptedAt}` : ''}${how ? ` (${how})` : ''}`
}

export function renderCustomer(out: Output, c: Customer): void {
  const cv = c.contactVerification
  const all = c as Record<string, unknown>
  const rows: Row = [
    ['id', c.id],
    ['type', c.customerType],
    ['name', nameOf(c)],
    [c.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus', statusOf(c)],
    ['platformCustomerId', c.platformCustomerId],
    ['email', c.email],
    ['phone', c.phoneNumber],
    ['region', c.region],
    ['currencies', c.currencies?.join(', ')],
    ['address', describeAddress(all.address)],
  ]
  for (const [k, v] of Object.entries(all)) if (!SUMMARY.has(k)) rows.push([k, describeValue(v)])
  rows.push(
    [
      'contactVerification',
      cv
        ? Object.entries(cv)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')
        : undefined,
    ],
    ['endUserTerms', termsLine(c.endUserTermsConsent as Record<string, string> | undefined)],
    ['umaAddress', c.umaAddress],
    ['created', `${c.createdAt} (${relativeTime(c.createdAt)})`],
    [
      'updated',
      c.updatedAt && c.updatedAt !== c.createdAt ? `${c.updatedAt} (${relativeTime(c.updatedAt)})` : undefined,
    ],
    ['deleted', c.isDeleted ? 'yes' : undefined],
  )
  renderKeyValue(out, rows)
  const info = c.businessInfo as Record<string, unknown> | undefined
  if (info) {
    out.print('')
    out.print(out.bold('Business'))
    const keys = [
      ...BUSINESS_FIRST.filter((k) => k in info),
      ...Object.keys(info).filter((k) => !BUSINESS_FIRST.includes(k)),
    ]
    renderKeyValue(
      out,
      keys.map((k) => [`  ${k}`, describeValue(info[k])]),
    )
  }
}

export const customerColumns: Array<Column<Customer>> = [
  {key: 'id', header: 'ID', get: (c) => c.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (c) => c.customerType, priority: 4},
  {key: 'name', header: 'NAME', get: nameOf, priority: 1},
  {key: 'status', header: 'STATUS', get: statusOf, priority: 2, noTruncate: true},
  {key: 'platform-id', header: 'PLATFORM ID', get: (c) => c.platformCustomerId, priority: 5},
  {key: 'created', header: 'CREATED', get: (c) => relativeTime(c.createdAt), raw: (c) => c.createdAt, priority: 3},
]

export async function renderCustomerList(
  out: Output,
  list: {data: Customer[]; hasMore: boolean; totalCount?: number; nextCursor?: string},
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, customerColumns, list, view)
}
