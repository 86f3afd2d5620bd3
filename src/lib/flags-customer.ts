import {Flags} from '@oclif/core'
import {addressFlags} from './flags-address.js'

/** Typed customer flags (create and update share them). */
export const customerFlags = {
  'full-name': Flags.string({description: 'individual: given and family name', helpGroup: 'INDIVIDUAL'}),
  'birth-date': Flags.string({description: 'individual: YYYY-MM-DD', helpGroup: 'INDIVIDUAL'}),
  nationality: Flags.string({description: 'individual: ISO 3166-1 alpha-2', helpGroup: 'INDIVIDUAL'}),
  'id-type': Flags.string({
    description: 'individual: type of --identifier (SSN, ITIN, EIN, NON_US_TAX_ID)',
    helpGroup: 'INDIVIDUAL',
  }),
  identifier: Flags.string({
    description: 'individual: the tax identification number (SSN or ITIN: ###-##-####)',
    helpGroup: 'INDIVIDUAL',
  }),
  email: Flags.string({description: 'contact email'}),
  phone: Flags.string({description: 'contact phone, E.164 (+15551234567)'}),
  currency: Flags.string({
    description: 'currency the customer transacts in (repeatable)',
    multiple: true,
    multipleNonGreedy: true,
  }),
  ...addressFlags,
  'legal-name': Flags.string({description: 'business: legal name', helpGroup: 'BUSINESS'}),
  country: Flags.string({
    description: 'business: country of incorporation (drives the tax-id check)',
    helpGroup: 'BUSINESS',
  }),
  'tax-id': Flags.string({description: 'business: tax id (US EIN, MX RFC, BR CNPJ ...)', helpGroup: 'BUSINESS'}),
  'incorporated-on': Flags.string({description: 'business: YYYY-MM-DD', helpGroup: 'BUSINESS'}),
  'registration-number': Flags.string({description: 'business: registration number', helpGroup: 'BUSINESS'}),
  'entity-type': Flags.string({description: 'business: LLC, CORPORATION ...', helpGroup: 'BUSINESS'}),
  'primary-contact-first-name': Flags.string({
    description: 'business: first name of the primary contact',
    helpGroup: 'BUSINESS',
  }),
  'primary-contact-last-name': Flags.string({
    description: 'business: last name of the primary contact',
    helpGroup: 'BUSINESS',
  }),
  data: Flags.string({
    description: 'request body as JSON: inline, @file.json, or - for stdin (typed flags override it)',
  }),
}
