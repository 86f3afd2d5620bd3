import {InputError} from '../../errors.js'
import {nameMissingFlags, type FlagOf} from '../../missing-flags.js'
import {
  beneficialOwnerCreate,
  beneficialOwnerUpdate,
  type BeneficialOwnerCreate,
  type BeneficialOwnerUpdate,
} from '../../schemas/kyc.js'
import {checkWith, compact} from '../../validate.js'
import {addressFromFlags, type AddressFlagValues} from '../../flags-address.js'

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

/** The flag that sets each field, so a missing one is named as the operator types it. */
const OWNER_FLAG_OF: FlagOf = {
  roles: 'role',
  ownershipPercentage: 'ownership',
  'personalInfo.firstName': 'first-name',
  'personalInfo.lastName': 'last-name',
  'personalInfo.birthDate': 'birth-date',
  'personalInfo.nationality': 'nationality',
  'personalInfo.idType': 'id-type',
  'personalInfo.identifier': 'identifier',
  'personalInfo.address.line1': 'address-line1',
  'personalInfo.address.postalCode': 'address-postal-code',
  'personalInfo.address.country': 'address-country',
}

/** Typed flags over `--data` JSON (flags win), checked with the shared schema before any request; missing fields named by flag. */
export function ownerBody(
  customerId: string,
  f: OwnerFlagValues,
  data: Record<string, unknown> = {},
): BeneficialOwnerCreate {
  const body = {...data, customerId, ...ownerFields(f, data)}
  try {
    return checkWith(beneficialOwnerCreate, body)
  } catch (e) {
    throw e instanceof InputError ? nameMissingFlags(e, body, beneficialOwnerCreate, OWNER_FLAG_OF) : e
  }
}

/** The fields to change (typed flags over `--data`), checked with the shared update schema; at least one. */
export function ownerPatchBody(f: OwnerFlagValues, data: Record<string, unknown> = {}): BeneficialOwnerUpdate {
  const {personalInfo, ...rest} = ownerFields(f, data)
  const body = {...data, ...rest, ...(Object.keys(personalInfo).length ? {personalInfo} : {})}
  if (!Object.keys(body).length)
    throw new InputError([
      {
        field: '(body)',
        message: 'nothing to change: give at least one flag (--role, --ownership, --email ...) or --data',
      },
    ])
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
  const pct =
    f.ownership === undefined
      ? data.ownershipPercentage
      : /^\d+(\.\d+)?%?$/.test(f.ownership)
        ? Number(f.ownership.replace('%', ''))
        : f.ownership
  return {
    ...(f.role?.length ? {roles: f.role.map((r) => r.toUpperCase())} : {}),
    ...(pct !== undefined ? {ownershipPercentage: pct} : {}),
    personalInfo,
  }
}
