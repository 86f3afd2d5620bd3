import {customerCreateRequest, customerListQuery, customerUpdateRequest} from '../../lib/schemas/customer.js'
import {checkTerms, createCustomer} from '../domain/customer-create.js'
import {
  CURRENT_TERMS_VERSION,
  TERMS_VERSIONS,
  contactVerificationFor,
  getCustomer,
  publicCustomer,
  saveCustomer,
  type StoredCustomer,
} from '../domain/customers.js'
import {addInternalAccounts} from '../domain/internal-accounts.js'
import {walletContactChange} from '../domain/wallet/contact.js'
import {HttpError, invalid, validate} from '../http-error.js'
import {birthDateErrors} from '../../lib/schemas/birth-date.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {listCustomers} from '../store/customers.js'

export function registerCustomers(router: Router): void {
  // Hosted URLs come from the sandbox's own address, never the request's Host header (a forged Host would send customers elsewhere).
  router.handle('getEndUserTerms', (_req, ctx) => ({
    status: 200,
    body: {version: CURRENT_TERMS_VERSION, url: `${ctx.url}/sandbox/hosted/terms/${CURRENT_TERMS_VERSION}`},
  }))

  // The page behind that url: an end user's browser opens it, so it is public like the hosted KYC page.
  router.handle('GET /sandbox/hosted/terms/{version}', (req) => {
    const known = TERMS_VERSIONS.includes(req.params.version)
    const text = known
      ? `<!doctype html><title>End-user terms ${req.params.version}</title><h1>Sandbox end-user terms, version ${req.params.version}</h1><p>These stand in for the platform's end-user terms. Record the customer's acceptance with the version shown here.</p>`
      : `<!doctype html><title>End-user terms</title><p>No terms of that version (current: ${CURRENT_TERMS_VERSION}).</p>`
    return {status: known ? 200 : 404, headers: {'content-type': 'text/html; charset=utf-8'}, text}
  })

  router.handle('createCustomer', (req, ctx) => {
    // The birth date against the sandbox's own clock (it may be advanced), listed with every other bad field.
    const input = validate(customerCreateRequest, req.body, undefined, birthDateErrors(req.body, ctx.iso()))
    return {status: 201, body: publicCustomer(createCustomer(ctx, input))}
  })

  router.handle('listCustomers', (req, ctx) => {
    const q = validate(customerListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listCustomers(ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicCustomer)}
  })

  router.handle('getCustomerById', (req, ctx) => ({
    status: 200,
    body: publicCustomer(getCustomer(ctx, req.params.customerId, {includeDeleted: true})),
  }))

  router.handle('updateCustomerById', (req, ctx) => {
    const existing = getCustomer(ctx, req.params.customerId)
    const patch = validate(customerUpdateRequest, req.body, undefined, birthDateErrors(req.body, ctx.iso()))
    if (patch.customerType !== existing.customerType) {
      throw invalid([
        {field: 'customerType', message: `must be ${existing.customerType} (the customer's type cannot change)`},
      ])
    }
    if (patch.email !== undefined && patch.phoneNumber !== undefined) {
      throw invalid([{field: 'phoneNumber', message: 'email and phoneNumber must be changed in separate requests'}])
    }
    checkTerms(patch.endUserTermsConsent?.termsVersion)
    // A change of an email/phone tied to a wallet credential goes through the signed retry first.
    return walletContactChange(req, existing, patch, () => {
      const next = applyPatch(existing, patch as Record<string, unknown>)
      if (patch.email !== undefined && patch.email !== existing.email && next.contactVerification?.email)
        next.contactVerification.email = 'PENDING'
      if (
        patch.phoneNumber !== undefined &&
        patch.phoneNumber !== existing.phoneNumber &&
        next.contactVerification?.phone
      )
        next.contactVerification.phone = 'PENDING'
      const cv = contactVerificationFor(next)
      if (cv) next.contactVerification = cv
      const saved = saveCustomer(ctx, next)
      if (patch.currencies) addInternalAccounts(ctx, saved.id, patch.currencies)
      return {status: 200, body: publicCustomer(saved)}
    })
  })

  router.handle('deleteCustomerById', (req, ctx) => {
    const c = getCustomer(ctx, req.params.customerId, {includeDeleted: true})
    if (c.isDeleted) throw new HttpError(410, 'CUSTOMER_DELETED', `Customer ${c.id} was already deleted`)
    return {status: 200, body: publicCustomer(saveCustomer(ctx, {...c, isDeleted: true}))}
  })
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
