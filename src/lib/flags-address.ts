import {Flags} from '@oclif/core'
import {compact} from './validate.js'

/** Postal-address flags, shared by every command that takes an address (customers, owners). */
export const addressFlags = {
  'address-line1': Flags.string({description: 'street and number', helpGroup: 'ADDRESS'}),
  'address-line2': Flags.string({description: 'apartment, suite, floor', helpGroup: 'ADDRESS'}),
  'address-city': Flags.string({description: 'city', helpGroup: 'ADDRESS'}),
  'address-state': Flags.string({description: 'state, province or region', helpGroup: 'ADDRESS'}),
  'address-postal-code': Flags.string({description: 'postal or ZIP code', helpGroup: 'ADDRESS'}),
  'address-country': Flags.string({description: 'ISO 3166-1 alpha-2', helpGroup: 'ADDRESS'}),
}

export interface AddressFlagValues {
  'address-line1'?: string
  'address-line2'?: string
  'address-city'?: string
  'address-state'?: string
  'address-postal-code'?: string
  'address-country'?: string
}

/** The API's Address from the flags that were given (empty when none were). */
export function addressFromFlags(f: AddressFlagValues): Record<string, string> {
  return compact({
    line1: f['address-line1'],
    line2: f['address-line2'],
    city: f['address-city'],
    state: f['address-state'],
    postalCode: f['address-postal-code'],
    country: f['address-country']?.toUpperCase(),
  })
}
