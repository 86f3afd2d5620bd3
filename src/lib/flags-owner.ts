import {Flags} from '@oclif/core'

const P = 'PERSON'

/** A beneficial owner's roles, share and personal details: `kyc owners add` and `kyc owners update` take the same. */
export const ownerFlags = {
  role: Flags.string({
    description: 'role (repeatable): UBO, DIRECTOR, COMPANY_OFFICER, CONTROL_PERSON, TRUSTEE, GENERAL_PARTNER',
    multiple: true,
    multipleNonGreedy: true,
  }),
  ownership: Flags.string({description: 'ownership percentage, a whole number 0-100'}),
  'first-name': Flags.string({description: 'given name', helpGroup: P}),
  'middle-name': Flags.string({description: 'middle name(s)', helpGroup: P}),
  'last-name': Flags.string({description: 'family name (the sandbox decides on its last 3 characters)', helpGroup: P}),
  'birth-date': Flags.string({description: 'YYYY-MM-DD', helpGroup: P}),
  nationality: Flags.string({description: 'ISO 3166-1 alpha-2', helpGroup: P}),
  email: Flags.string({description: 'contact email', helpGroup: P}),
  phone: Flags.string({description: 'E.164', helpGroup: P}),
  'id-type': Flags.string({description: 'SSN, ITIN, EIN or NON_US_TAX_ID', helpGroup: P}),
  identifier: Flags.string({description: 'the identification number', helpGroup: P}),
  'country-of-issuance': Flags.string({
    description: 'country that issued --identifier, ISO 3166-1 alpha-2',
    helpGroup: P,
  }),
}
