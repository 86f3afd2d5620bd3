import {taxIdProblem} from '../../schemas/tax-id.js'
import {get, type Item} from './build-kyc-items.js'
import type {Fakes} from './fakes.js'
import type {Doc} from './read.js'

/** The request bodies an onboarding replay sends: personal data faked, the sandbox's outcome suffixes added. */

/** Observed status -> the suffix that makes the sandbox decide the same (sandbox-behaviour 2-4). */
export const STATUS_SUFFIX: Record<string, string> = {APPROVED: '', REJECTED: ' 002', PENDING: ' 001', HOLD: ' 004'}
const OWNER_SUFFIX: Record<string, string> = {APPROVED: '', REJECTED: '002', PENDING: '001', HOLD: '004'}

/** An owner's personalInfo, faked, with the suffix that makes the sandbox decide its observed kycStatus. */
export function ownerPersonalInfo(o: Doc, fakes: Fakes): Doc {
  const p = (o.personalInfo ?? {}) as Doc
  const names = fakes.ownerName(String(p.firstName ?? ''), String(p.lastName ?? ''))
  const suffix = OWNER_SUFFIX[String(o.kycStatus ?? 'APPROVED')] ?? ''
  return {
    firstName: names.firstName,
    lastName: names.lastName + suffix,
    birthDate: p.birthDate ? fakes.birthDate(String(p.birthDate)) : '1980-01-01',
    nationality: p.nationality ?? 'US',
    ...(p.email ? {email: fakes.email(String(p.email))} : {}),
    ...(p.phoneNumber ? {phoneNumber: fakes.phone(String(p.phoneNumber))} : {}),
    address: p.address ? fakes.address(p.address as Doc) : fakes.address({country: 'US'}),
    idType: p.idType ?? 'SSN',
    identifier: fakes.taxId(`${o.id}:identifier`),
  }
}

/** The create body: personal data faked, status suffix on the name, withheld fields left out. */
export function customerBody(c: Doc, fakes: Fakes, suffix: string, withheld: Set<Item>): Record<string, unknown> {
  const keep = (f: string) => !withheld.has(`field:${f}`) && get(c, f) !== undefined
  const body: Record<string, unknown> = {
    customerType: c.customerType,
    platformCustomerId: `${fakes.platformCustomerId(String(c.platformCustomerId))}-\${run.id}`,
  }
  if (c.umaAddress) fakes.droppedUmaAddress()
  if (c.region) body.region = c.region
  if (c.currencies) body.currencies = c.currencies
  if (c.email) body.email = fakes.email(String(c.email))
  if (c.phoneNumber) body.phoneNumber = fakes.phone(String(c.phoneNumber))
  if (c.customerType === 'BUSINESS') {
    const info = {...(c.businessInfo as Doc)}
    info.legalName = fakes.businessName(String(info.legalName))
    if (info.doingBusinessAs) info.doingBusinessAs = info.legalName
    // Free text may name people: left out.
    for (const k of Object.keys(info)) if (k === 'sourceOfFunds' || k.endsWith('OtherDescription')) delete info[k]
    if (info.taxId) info.taxId = fakes.businessTaxId(String(info.taxId), (v) => !taxIdProblem(String(info.country), v))
    if (info.primaryContactFirstName || info.primaryContactLastName) {
      const n = fakes.ownerName(String(info.primaryContactFirstName ?? ''), String(info.primaryContactLastName ?? ''))
      if (info.primaryContactFirstName) info.primaryContactFirstName = n.firstName
      if (info.primaryContactLastName) info.primaryContactLastName = n.lastName
    }
    if (keep('businessInfo.registrationNumber'))
      info.registrationNumber = fakeField(c, 'businessInfo.registrationNumber', fakes, suffix)
    else delete info.registrationNumber
    body.businessInfo = info
    if (keep('address')) body.address = fakes.address(c.address as Doc)
    return body
  }
  if (keep('fullName')) body.fullName = fakes.fullName(String(c.fullName ?? ''), suffix)
  for (const f of ['birthDate', 'nationality', 'address', 'idType'])
    if (keep(f))
      Object.assign(
        body,
        f === 'idType' ? {idType: c.idType, identifier: fakeField(c, 'idType', fakes)} : {[f]: fakeField(c, f, fakes)},
      )
  return body
}

export function fakeField(c: Doc, field: string, fakes: Fakes, suffix = ''): unknown {
  const v = get(c, field)
  if (field === 'birthDate') return fakes.birthDate(String(v))
  if (field === 'address') return fakes.address(v as Doc)
  if (field === 'idType') return fakes.taxId(`${c.id}:identifier`)
  if (field === 'fullName') return fakes.fullName(String(v), STATUS_SUFFIX[String(c.kycStatus)] ?? '')
  // A registration number is not personal, but the sandbox decides on its suffix: rebuilt from the status.
  if (field === 'businessInfo.registrationNumber')
    return `REG-\${run.id}-${(suffix || STATUS_SUFFIX[String(c.kybStatus)] || '').trim() || '010'}`
  return v
}
