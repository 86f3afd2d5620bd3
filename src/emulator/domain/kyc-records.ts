import type {VerificationError} from '../../lib/schemas/kyc.js'
import type {SandboxContext} from '../context.js'
import {HttpError, notFound} from '../http-error.js'
import {documentsOf as documentsOfHolder, ownersOf as ownersOfCustomer} from '../store/kyc.js'
import type {StoredCustomer} from './customers.js'
import type {StoredOwner} from '../store/kyc.js'
import type {StoredDocument} from '../store/kyc.js'
export type {StoredDocument}
export type {StoredOwner}

/** Onboarding records of the local sandbox (collections beneficialOwners, documents, verifications). */

export interface StoredVerification {
  id: string
  customerId: string
  verificationStatus: 'IN_PROGRESS' | 'RESOLVE_ERRORS'
  errors: VerificationError[]
  createdAt: string
  updatedAt: string
}

export function ownersOf(ctx: SandboxContext, customerId: string): StoredOwner[] {
  return ownersOfCustomer(ctx.db, customerId)
}

export function getOwner(ctx: SandboxContext, id: string): StoredOwner {
  const o = ctx.db.get<StoredOwner>('beneficialOwners', id)
  if (!o) throw notFound('NOT_FOUND', `Beneficial owner ${id}`)
  return o
}

/** An owner as answered: unlike a customer's own identifier (write-only), an owner's `personalInfo.identifier` comes back (contract BeneficialOwnerPersonalInfo). */
export function publicOwner(o: StoredOwner): Record<string, unknown> {
  return {...o, personalInfo: {...o.personalInfo}}
}

export function documentsOf(ctx: SandboxContext, holder: string): StoredDocument[] {
  return documentsOfHolder(ctx.db, holder)
}

export function publicDocument(d: StoredDocument): Record<string, unknown> {
  const {sha256: _s, ...rest} = d
  return rest
}

/** The status field a customer's verification lives in. */
export function statusKey(c: StoredCustomer): 'kycStatus' | 'kybStatus' {
  return c.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus'
}

export function statusOf(c: StoredCustomer): string {
  return String(c[statusKey(c)] ?? 'UNVERIFIED')
}

/** The customer that owns a document holder (itself, or the business of a beneficial owner). */
export function holderCustomer(ctx: SandboxContext, holder: string): StoredCustomer | undefined {
  if (holder.startsWith('BeneficialOwner:')) {
    const o = ctx.db.get<StoredOwner>('beneficialOwners', holder)
    return o ? ctx.db.get<StoredCustomer>('customers', o.customerId) : undefined
  }
  return ctx.db.get<StoredCustomer>('customers', holder)
}

/** While a review runs its packet is frozen: new owners or documents would be decided unseen. */
export function refuseWhileUnderReview(c: StoredCustomer, what: string, verb = 'added'): void {
  if (statusOf(c) === 'PENDING') {
    throw new HttpError(
      409,
      'INVALID_STATE_TRANSITION',
      `${c.id} is under review (PENDING); ${what} cannot be ${verb} until the decision`,
      {status: 'PENDING'},
    )
  }
}
