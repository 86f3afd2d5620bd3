import {EU_COUNTRIES} from '../../lib/schemas/countries.js'
import {IDENTITY_DOCUMENTS, LEGAL_PRESENCE_DOCUMENTS, TWO_SIDED, type VerificationError} from '../../lib/schemas/kyc.js'
import type {SandboxContext} from '../context.js'
import {customerCountry, type StoredCustomer} from './customers.js'
import {documentsOf, ownersOf, type StoredDocument} from './kyc-records.js'

/** Beneficial owners at or above this share must be declared and identified (spec 4.2 rule 6, section 8). */
export const OWNER_THRESHOLD = 25

/**
 * What a submission still lacks (spec 4.2 rules 3, 5, 6, 7): one entry per missing field or
 * document, naming the resource it belongs to. An empty list means the packet is complete.
 * `paperwork: false` (the sandbox skip option) drops the document and owner requirements.
 */
export function verificationErrors(
  ctx: SandboxContext,
  c: StoredCustomer,
  opts: {paperwork: boolean},
): VerificationError[] {
  const errors: VerificationError[] = []
  const missing = (field: string, reason: string) =>
    errors.push({resourceId: c.id, type: 'MISSING_FIELD', field, reason})

  if (!ctx.config().isRegulatedFinancialInstitution && !c.endUserTermsConsent) {
    missing(
      'endUserTermsConsent',
      "Unregulated platforms must record the end user's acceptance of the terms (`svc customers terms <id> --accept`)",
    )
  }
  for (const [channel, state] of Object.entries(c.contactVerification ?? {})) {
    if (state !== 'VERIFIED')
      missing(
        `contactVerification.${channel}`,
        `The ${channel} channel is not verified yet (\`svc kyc verify-${channel}\`, then \`confirm-${channel}\`)`,
      )
  }

  if (c.customerType === 'INDIVIDUAL') {
    const name = typeof c.fullName === 'string' ? c.fullName.trim() : ''
    if (!name) missing('fullName', 'The full name is required')
    else if (name.split(/\s+/).length < 2) missing('fullName', 'The full name must contain a given and a family name')
    if (!c.birthDate) missing('birthDate', 'The date of birth is required')
    if (!c.nationality) missing('nationality', 'The nationality is required')
    if (!c.address) missing('address', 'The residential address is required')
    if (!c.idType) missing('idType', 'The identification type (SSN or ITIN) is required')
    if (!c.identifier)
      missing('identifier', 'The identification number is required (write-only; it is never shown back)')
    if (opts.paperwork) identityDocument(c.id, documentsOf(ctx, c.id), errors)
    return errors
  }

  const info = c.businessInfo ?? {}
  if (!info.registrationNumber) missing('businessInfo.registrationNumber', 'The registration number is required')
  if (!c.address) missing('address', 'The business address is required')
  const country = customerCountry(c)
  if (country && EU_COUNTRIES.has(country)) {
    // Regions that verify a named representative (spec 4.2 rule 3).
    if (!c.email && !c.phoneNumber)
      missing('email', `Businesses in ${country} need an email or phone number for the representative`)
    if (!info.primaryContactFirstName)
      missing('businessInfo.primaryContactFirstName', `Businesses in ${country} need the primary contact's first name`)
    if (!info.primaryContactLastName)
      missing('businessInfo.primaryContactLastName', `Businesses in ${country} need the primary contact's last name`)
  }
  if (!opts.paperwork) return errors

  const docs = documentsOf(ctx, c.id)
  if (!docs.some((d) => LEGAL_PRESENCE_DOCUMENTS.includes(d.documentType))) {
    errors.push({
      resourceId: c.id,
      type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
      acceptedDocumentTypes: [...LEGAL_PRESENCE_DOCUMENTS],
      reason: 'A document proving the business exists is required',
    })
  }
  const owners = ownersOf(ctx, c.id)
  if (!owners.some((o) => o.roles.includes('UBO'))) {
    errors.push({
      resourceId: c.id,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: `Declare every beneficial owner (role UBO) holding ${OWNER_THRESHOLD}% or more`,
    })
  }
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON'))) {
    errors.push({
      resourceId: c.id,
      type: 'MISSING_CONTROL_PERSON',
      reason: 'One control person (role CONTROL_PERSON) is required',
    })
  }
  for (const o of owners) {
    if (o.ownershipPercentage >= OWNER_THRESHOLD || o.roles.includes('CONTROL_PERSON'))
      identityDocument(o.id, documentsOf(ctx, o.id), errors)
  }
  return errors
}

/** A PASSPORT, or both sides of a DRIVERS_LICENSE or NATIONAL_ID (spec 4.2 rule 5). */
function identityDocument(holder: string, docs: StoredDocument[], errors: VerificationError[]): void {
  if (docs.some((d) => d.documentType === 'PASSPORT')) return
  let reason = 'An identity document is required: a PASSPORT, or the FRONT and BACK of a DRIVERS_LICENSE or NATIONAL_ID'
  for (const type of TWO_SIDED) {
    const sides = new Set(docs.filter((d) => d.documentType === type).map((d) => d.side))
    if (sides.has('FRONT') && sides.has('BACK')) return
    if (sides.size)
      reason = `The ${type} has only its ${[...sides].join(', ')} side; upload the ${sides.has('FRONT') ? 'BACK' : 'FRONT'} too`
  }
  errors.push({
    resourceId: holder,
    type: 'MISSING_IDENTITY_DOCUMENT',
    acceptedDocumentTypes: [...IDENTITY_DOCUMENTS],
    reason,
  })
}
