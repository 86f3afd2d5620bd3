import type {Customer} from '../schemas/customer.js'
import type {BeneficialOwner, Document, Verification, VerificationError} from '../schemas/kyc.js'
import {nameOf, statusOf} from './customer.js'
import {relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

export interface KycStatusView {
  customer: Customer
  verification?: Verification
  beneficialOwners?: BeneficialOwner[]
}

const FIELD_FIX: Record<string, (id: string) => string> = {
  fullName: (id) => `svc customers update ${id} --full-name "Given Family"`,
  birthDate: (id) => `svc customers update ${id} --birth-date YYYY-MM-DD`,
  nationality: (id) => `svc customers update ${id} --nationality CC`,
  address: (id) => `svc customers update ${id} --address-line1 ... --address-postal-code ... --address-country CC`,
  idType: (id) => `svc customers update ${id} --id-type SSN --identifier ###-##-####`,
  identifier: (id) => `svc customers update ${id} --id-type SSN --identifier ###-##-####`,
  email: (id) => `svc customers update ${id} --email name@example.com`,
  endUserTermsConsent: (id) => `svc customers terms ${id} --accept --ip <end user's IP>`,
  'contactVerification.email': (id) => `svc kyc verify-email ${id}, then svc kyc confirm-email ${id} --code <code>`,
  'contactVerification.phone': (id) => `svc kyc verify-phone ${id}, then svc kyc confirm-phone ${id} --code <code>`,
  'businessInfo.registrationNumber': (id) => `svc customers update ${id} --registration-number ...`,
  'businessInfo.primaryContactFirstName': (id) => `svc customers update ${id} --primary-contact-first-name ...`,
  'businessInfo.primaryContactLastName': (id) => `svc customers update ${id} --primary-contact-last-name ...`,
}

/** The command that resolves one RESOLVE_ERRORS entry, so the checklist can be worked down. */
export function fixFor(e: VerificationError, customerId: string): string | undefined {
  if (e.type === 'MISSING_FIELD' && e.field) return FIELD_FIX[e.field]?.(e.resourceId)
  if (e.acceptedDocumentTypes?.length)
    return `svc kyc documents upload --holder ${e.resourceId} --type ${e.acceptedDocumentTypes[0]} --file <path> --country CC${e.type === 'MISSING_IDENTITY_DOCUMENT' ? ' --number ... --issuing-authority ...' : ''}`
  if (e.type === 'MISSING_CONTROL_PERSON') return `svc kyc owners add ${customerId} --role CONTROL_PERSON ...`
  if (e.type === 'MISSING_BENEFICIAL_OWNER')
    return `svc kyc owners add ${customerId} --role UBO --ownership <percent> ...`
  return undefined
}

function describeResource(id: string, view: KycStatusView): string {
  // The customer's id is in the header already; owners are named so the operator knows who to chase.
  if (id === view.customer.id) return view.customer.customerType === 'BUSINESS' ? 'the business' : 'the customer'
  const o = view.beneficialOwners?.find((b) => b.id === id)
  return o ? `${id} (${o.personalInfo.firstName} ${o.personalInfo.lastName}, ${o.roles.join('/')})` : id
}

/** "What is missing": one checkbox line per error, with what is accepted and the command that fixes it. */
export function renderChecklist(out: Output, errors: VerificationError[], view: KycStatusView): void {
  out.print('')
  out.print(out.bold(`Still missing (${errors.length}) — resolve each, then run: svc kyc submit ${view.customer.id}`))
  for (const e of errors) {
    const what = e.field
      ? `field ${e.field}`
      : e.type
          .replace(/^MISSING_/, '')
          .toLowerCase()
          .replace(/_/g, ' ')
    out.print(`  [ ] ${describeResource(e.resourceId, view)}: ${what}`)
    out.print(`      ${e.reason}`)
    if (e.acceptedDocumentTypes?.length) out.print(`      accepted: ${e.acceptedDocumentTypes.join(', ')}`)
    const fix = fixFor(e, view.customer.id ?? '<customer>')
    if (fix) out.print(out.dim(`      → ${fix}`))
  }
}

/**
 * The Service keeps a submission IN_PROGRESS after the decision (its statuses are IN_PROGRESS and
 * RESOLVE_ERRORS only), so the line follows the customer's status and never contradicts it.
 */
export function verificationLine(v: Verification, status: string): string {
  const submitted = `submitted ${relativeTime(v.createdAt)}`
  if (v.verificationStatus === 'RESOLVE_ERRORS')
    return `${v.id} RESOLVE_ERRORS: ${v.errors.length} item(s) to resolve (${submitted})`
  if (status === 'APPROVED' || status === 'REJECTED') return `${v.id} decided: ${status} (${submitted})`
  if (status === 'HOLD') return `${v.id} on HOLD: more information needed (${submitted})`
  if (status === 'PENDING') return `${v.id} under review (${submitted})`
  return `${v.id} ${v.verificationStatus} (${submitted})`
}

export function renderKycStatus(out: Output, view: KycStatusView): void {
  const c = view.customer
  const status = statusOf(c)
  const cv = c.contactVerification
  const v = view.verification
  renderKeyValue(out, [
    ['customer', c.id],
    ['type', c.customerType],
    ['name', nameOf(c)],
    [c.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus', status],
    [
      'contactVerification',
      cv
        ? Object.entries(cv)
            .map(([k, s]) => `${k} ${s}`)
            .join(', ')
        : undefined,
    ],
    ['verification', v ? verificationLine(v, status) : 'none submitted yet'],
    [
      'owners',
      view.beneficialOwners
        ? view.beneficialOwners
            .map(
              (o) => `${o.personalInfo.firstName} ${o.personalInfo.lastName} ${o.ownershipPercentage}% ${o.kycStatus}`,
            )
            .join('; ') || 'none declared'
        : undefined,
    ],
  ])
  if (status === 'UNVERIFIED' && v?.verificationStatus === 'RESOLVE_ERRORS' && v.errors.length)
    renderChecklist(out, v.errors, view)
  else if (status === 'PENDING') out.info(out.dim(`Under review. Wait for the decision: svc kyc wait ${c.id}`))
  else if (status === 'HOLD')
    out.info(out.dim(`On HOLD: the provider needs more information. Fix the data, then: svc kyc submit ${c.id}`))
  else if (status === 'UNVERIFIED' && !v)
    out.info(out.dim(`Nothing submitted yet: svc kyc submit ${c.id} (or send a hosted link: svc kyc link ${c.id})`))
}

export const ownerColumns: Array<Column<BeneficialOwner>> = [
  {key: 'id', header: 'ID', get: (o) => o.id, noTruncate: true},
  {key: 'name', header: 'NAME', get: (o) => `${o.personalInfo.firstName} ${o.personalInfo.lastName}`, priority: 1},
  {key: 'roles', header: 'ROLES', get: (o) => o.roles.join(', '), priority: 4},
  {
    key: 'ownership',
    header: 'OWNERSHIP',
    get: (o) => `${o.ownershipPercentage}%`,
    raw: (o) => o.ownershipPercentage,
    priority: 3,
  },
  {key: 'kyc', header: 'KYC', get: (o) => o.kycStatus, priority: 2, noTruncate: true},
]

export async function renderOwners(
  out: Output,
  owners: BeneficialOwner[],
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, ownerColumns, {data: owners}, view)
}

export const documentColumns: Array<Column<Document>> = [
  {key: 'id', header: 'ID', get: (d) => d.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (d) => d.documentType, priority: 1},
  {key: 'side', header: 'SIDE', get: (d) => d.side ?? '', priority: 3},
  {key: 'country', header: 'COUNTRY', get: (d) => d.country, priority: 4},
  {key: 'file', header: 'FILE', get: (d) => d.fileName, priority: 2},
  {key: 'uploaded', header: 'UPLOADED', get: (d) => relativeTime(d.createdAt), raw: (d) => d.createdAt, priority: 5},
]

export async function renderDocuments(
  out: Output,
  docs: Document[],
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, documentColumns, {data: docs}, view)
}
