import {customerCreateRequest, customerListQuery, customerUpdateRequest} from '../../lib/schemas/customer.js'
import {
  CURRENT_TERMS_VERSION,
  TERMS_VERSIONS,
  contactVerificationFor,
  getCustomer,
  publicCustomer,
  saveCustomer,
  type StoredCustomer,
} from '../domain/customers.js'
import {createInternalAccounts} from '../domain/internal-accounts.js'
import {walletContactChange} from '../domain/wallet/contact.js'
import type {Emulator} from '../emulator.js'
import {HttpError, badRequest, conflict, invalid, validate} from '../http-error.js'
import {newId} from '../ids.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {activeByPlatformId, activeByUmaAddress, listCustomers} from '../store/customers.js'

/** Hooks other modules add to (KYC decisions at create, wallet provisioning ...). */
export const customerHooks = {
  created: [] as Array<(emu: Emulator, c: StoredCustomer) => void>,
}

export function registerCustomers(router: Router, emu: Emulator): void {
  router.get('/customers/end-user-terms', (req) => ({
    status: 200,
    body: {version: CURRENT_TERMS_VERSION, url: `http://${req.headers.host}/2025-10-13/sandbox/hosted/terms/${CURRENT_TERMS_VERSION}`},
  }))

  router.post('/customers', (req) => {
    const input = validate(customerCreateRequest, req.body)
    checkTerms(input.endUserTermsConsent?.termsVersion)
    if (input.customerType === 'INDIVIDUAL' && input.kycStatus && !emu.config().isRegulatedFinancialInstitution) {
      throw invalid([{field: 'kycStatus', message: 'only regulated platforms may set kycStatus'}])
    }
    if (input.customerType === 'BUSINESS' && input.kybStatus && !emu.config().isRegulatedFinancialInstitution) {
      throw invalid([{field: 'kybStatus', message: 'only regulated platforms may set kybStatus'}])
    }
    const existing = input.platformCustomerId ? activeByPlatformId(emu.db, input.platformCustomerId) : undefined
    if (existing) {
      throw conflict('CONFLICT', `platformCustomerId "${input.platformCustomerId}" belongs to an active customer`, {existingCustomerId: existing.id})
    }
    if (input.umaAddress && activeByUmaAddress(emu.db, input.umaAddress)) {
      throw conflict('UMA_ADDRESS_EXISTS', `umaAddress ${input.umaAddress} is taken`)
    }
    const id = newId('Customer')
    const now = emu.iso()
    const short = id.split(':')[1].slice(0, 8)
    const customer: StoredCustomer = {
      ...input,
      id,
      platformCustomerId: input.platformCustomerId ?? `pc_${short}`,
      umaAddress: input.umaAddress ?? `$${short}@${emu.config().umaDomain}`,
      ...(input.customerType === 'INDIVIDUAL' ? {kycStatus: input.kycStatus ?? 'UNVERIFIED'} : {kybStatus: input.kybStatus ?? 'UNVERIFIED'}),
      isDeleted: false,
      createdAt: now,
      updatedAt: now,
    }
    const cv = contactVerificationFor(customer)
    if (cv) customer.contactVerification = cv
    emu.db.put('customers', id, customer)
    createInternalAccounts(emu, id, input.currencies ?? [])
    for (const hook of customerHooks.created) hook(emu, customer)
    return {status: 201, body: publicCustomer(getCustomer(emu, id))}
  })

  router.get('/customers', (req) => {
    const q = validate(customerListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listCustomers(emu.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicCustomer)}
  })

  router.get('/customers/:customerId', (req) => ({status: 200, body: publicCustomer(getCustomer(emu, req.params.customerId, {includeDeleted: true}))}))

  router.patch('/customers/:customerId', (req) => {
    const existing = getCustomer(emu, req.params.customerId)
    const patch = validate(customerUpdateRequest, req.body)
    if (patch.customerType !== existing.customerType) {
      throw invalid([{field: 'customerType', message: `must be ${existing.customerType} (the customer's type cannot change)`}])
    }
    if (patch.email !== undefined && patch.phoneNumber !== undefined) {
      throw invalid([{field: 'phoneNumber', message: 'email and phoneNumber must be changed in separate requests'}])
    }
    checkTerms(patch.endUserTermsConsent?.termsVersion)
    // A change of an email/phone tied to a wallet credential goes through the signed retry first.
    return walletContactChange(req, existing, patch, () => {
      const next = applyPatch(existing, patch as Record<string, unknown>)
      if (patch.email !== undefined && patch.email !== existing.email && next.contactVerification?.email) next.contactVerification.email = 'PENDING'
      if (patch.phoneNumber !== undefined && patch.phoneNumber !== existing.phoneNumber && next.contactVerification?.phone) next.contactVerification.phone = 'PENDING'
      const cv = contactVerificationFor(next)
      if (cv) next.contactVerification = cv
      return {status: 200, body: publicCustomer(saveCustomer(emu, next))}
    })
  })

  router.delete('/customers/:customerId', (req) => {
    const c = getCustomer(emu, req.params.customerId, {includeDeleted: true})
    if (c.isDeleted) throw new HttpError(410, 'CUSTOMER_DELETED', `Customer ${c.id} was already deleted`)
    return {status: 200, body: publicCustomer(saveCustomer(emu, {...c, isDeleted: true}))}
  })
}

function checkTerms(version: string | undefined): void {
  if (version !== undefined && !TERMS_VERSIONS.includes(version)) {
    throw badRequest('END_USER_TERMS_VERSION_NOT_FOUND', `End-user terms version "${version}" does not exist (current: ${CURRENT_TERMS_VERSION})`)
  }
}

/** PATCH semantics: top-level fields replace; businessInfo merges field by field. */
function applyPatch(c: StoredCustomer, patch: Record<string, unknown>): StoredCustomer {
  const {businessInfo, ...rest} = patch
  return {
    ...c,
    ...rest,
    ...(businessInfo ? {businessInfo: {...c.businessInfo, ...(businessInfo as Record<string, unknown>)}} : {}),
  } as StoredCustomer
}
