import {InputError} from '../errors.js'
import {beneficialOwnerCreate, beneficialOwnerUpdate, type BeneficialOwnerCreate, type BeneficialOwnerUpdate} from '../schemas/kyc.js'
import {checkWith, compact} from '../validate.js'
import {addressFromFlags, type AddressFlagValues} from '../flags-address.js'

export interface OwnerFlagValues extends AddressFlagValues {
  role?: string[]
  ownership?: string
  'first-name'?: string
  'middle-name'?: string
  'last-name'?: string
  'birth-date'?: string
  nationality?: string
  email?: string
  phone?: string
  'id-type'?: string
  identifier?: string
  'country-of-issuance'?: string
}

/** Typed flags over `--data` JSON (flags win), checked with the shared schema before any request. */
export function ownerBody(customerId: string, f: OwnerFlagValues, data: Record<string, unknown> = {}): BeneficialOwnerCreate {
  return checkWith(beneficialOwnerCreate, {...data, customerId, ...ownerFields(f, data)})
}

/** The fields to change (typed flags over `--data`), checked with the shared update schema; at least one. */
export function ownerPatchBody(f: OwnerFlagValues, data: Record<string, unknown> = {}): BeneficialOwnerUpdate {
  const {personalInfo, ...rest} = ownerFields(f, data)
  const body = {...data, ...rest, ...(Object.keys(personalInfo).length ? {personalInfo} : {})}
  if (!Object.keys(body).length) throw new InputError([{field: '(body)', message: 'nothing to change: give at least one flag (--role, --ownership, --email ...) or --data'}])
  return checkWith(beneficialOwnerUpdate, body)
}

function ownerFields(f: OwnerFlagValues, data: Record<string, unknown>) {
  const dataInfo = (data.personalInfo ?? {}) as Record<string, unknown>
  const address = addressFromFlags(f)
  const personalInfo = {
    ...dataInfo,
    ...compact({
      firstName: f['first-name'],
      middleName: f['middle-name'],
      lastName: f['last-name'],
      birthDate: f['birth-date'],
      nationality: f.nationality?.toUpperCase(),
      email: f.email,
      phoneNumber: f.phone,
      idType: f['id-type']?.toUpperCase(),
      identifier: f.identifier,
      countryOfIssuance: f['country-of-issuance']?.toUpperCase(),
    }),
    ...(Object.keys(address).length ? {address: {...(dataInfo.address as object), ...address}} : {}),
  }
  // "30", "30%" and "33.5" are numbers (the schema then names a fraction); anything else is left for the schema to name.
  const pct = f.ownership === undefined ? data.ownershipPercentage : /^\d+(\.\d+)?%?$/.test(f.ownership) ? Number(f.ownership.replace('%', '')) : f.ownership
  return {
    ...(f.role?.length ? {roles: f.role.map((r) => r.toUpperCase())} : {}),
    ...(pct !== undefined ? {ownershipPercentage: pct} : {}),
    personalInfo,
  }
}
