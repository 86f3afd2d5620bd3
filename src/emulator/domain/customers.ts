import {EU_COUNTRIES} from '../../lib/schemas/countries.js'
import type {SandboxContext} from '../context.js'
import {notFound} from '../http-error.js'
import type {StoredCustomer} from '../store/customers.js'
export type {StoredCustomer}

export const TERMS_VERSIONS = ['2025-10-01', '2025-04-01']
export const CURRENT_TERMS_VERSION = TERMS_VERSIONS[0]

/** The country that decides the provider's rules: region, else address, nationality or incorporation. */
export function customerCountry(
  c: Pick<StoredCustomer, 'region' | 'address' | 'nationality' | 'businessInfo'>,
): string | undefined {
  return c.region ?? c.address?.country ?? c.nationality ?? (c.businessInfo?.country as string | undefined)
}

/** Providers in EU regions verify contact channels before KYC: one entry per channel present. */
export function contactVerificationFor(c: StoredCustomer): StoredCustomer['contactVerification'] {
  const country = customerCountry(c)
  if (!country || !EU_COUNTRIES.has(country)) return undefined
  const cv: NonNullable<StoredCustomer['contactVerification']> = {}
  if (c.email) cv.email = c.contactVerification?.email ?? 'PENDING'
  if (c.phoneNumber) cv.phone = c.contactVerification?.phone ?? 'PENDING'
  return Object.keys(cv).length ? cv : undefined
}

export function publicCustomer(c: StoredCustomer): Record<string, unknown> {
  const {identifier: _hidden, ...rest} = c
  return rest
}

export function getCustomer(ctx: SandboxContext, id: string, opts: {includeDeleted?: boolean} = {}): StoredCustomer {
  const c = ctx.db.get<StoredCustomer>('customers', id)
  // USER_NOT_FOUND, not the spec's other CUSTOMER_NOT_FOUND: §7 lists both, the contract documents only
  // USER_NOT_FOUND ("Customer not found"), so this answer satisfies both readings.
  if (!c || (c.isDeleted && !opts.includeDeleted)) throw notFound('USER_NOT_FOUND', `Customer ${id}`)
  return c
}

export function saveCustomer(ctx: SandboxContext, c: StoredCustomer): StoredCustomer {
  return ctx.db.put('customers', c.id, {...c, updatedAt: ctx.iso()})
}
