import type {CustomerCreateRequest} from '../../lib/schemas/customer.js'
import type {SandboxContext} from '../context.js'
import {badRequest, conflict, invalid} from '../http-error.js'
import {newId} from '../ids.js'
import {activeByPlatformId, activeByUmaAddress} from '../store/customers.js'
import {
  CURRENT_TERMS_VERSION,
  TERMS_VERSIONS,
  contactVerificationFor,
  getCustomer,
  type StoredCustomer,
} from './customers.js'
import {PLATFORM_CURRENCY, createInternalAccounts} from './internal-accounts.js'

export function checkTerms(version: string | undefined): void {
  if (version !== undefined && !TERMS_VERSIONS.includes(version)) {
    throw badRequest(
      'END_USER_TERMS_VERSION_NOT_FOUND',
      `End-user terms version "${version}" does not exist (current: ${CURRENT_TERMS_VERSION})`,
    )
  }
}

/**
 * Creates a customer from a validated body, as POST /customers and the bulk import both do:
 * the platform rules, platformCustomerId and umaAddress uniqueness (409), internal accounts, hooks.
 */
export function createCustomer(ctx: SandboxContext, input: CustomerCreateRequest): StoredCustomer {
  checkTerms(input.endUserTermsConsent?.termsVersion)
  if (input.customerType === 'INDIVIDUAL' && input.kycStatus && !ctx.config().isRegulatedFinancialInstitution) {
    throw invalid([{field: 'kycStatus', message: 'only regulated platforms may set kycStatus'}])
  }
  if (input.customerType === 'BUSINESS' && input.kybStatus && !ctx.config().isRegulatedFinancialInstitution) {
    throw invalid([{field: 'kybStatus', message: 'only regulated platforms may set kybStatus'}])
  }
  const existing = input.platformCustomerId ? activeByPlatformId(ctx.db, input.platformCustomerId) : undefined
  if (existing) {
    throw conflict('CONFLICT', `platformCustomerId "${input.platformCustomerId}" belongs to an active customer`, {
      existingCustomerId: existing.id,
    })
  }
  if (input.umaAddress && activeByUmaAddress(ctx.db, input.umaAddress)) {
    throw conflict('UMA_ADDRESS_EXISTS', `umaAddress ${input.umaAddress} is taken`)
  }
  const id = newId('Customer')
  const now = ctx.iso()
  const short = id.split(':')[1].slice(0, 8)
  const customer: StoredCustomer = {
    ...input,
    id,
    platformCustomerId: input.platformCustomerId ?? `pc_${short}`,
    umaAddress: input.umaAddress ?? `$${short}@${ctx.config().umaDomain}`,
    ...(input.customerType === 'INDIVIDUAL'
      ? {kycStatus: input.kycStatus ?? 'UNVERIFIED'}
      : {kybStatus: input.kybStatus ?? 'UNVERIFIED'}),
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
  }
  const cv = contactVerificationFor(customer)
  if (cv) customer.contactVerification = cv
  ctx.db.put('customers', id, customer)
  createInternalAccounts(ctx, id, input.currencies?.length ? input.currencies : [PLATFORM_CURRENCY])
  // What else happens (KYC decision, embedded wallet ...) is wired in emulator.ts, the composition root.
  for (const react of ctx.reactions.customerCreated) react(ctx.system(), customer)
  return getCustomer(ctx, id)
}
