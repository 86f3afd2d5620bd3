import {addressSchema} from '../../lib/schemas/common.js'
import {beneficialOwnerCreate, beneficialOwnerUpdate} from '../../lib/schemas/kyc.js'
import {getCustomer} from '../domain/customers.js'
import {getOwner, ownersOf, publicOwner, refuseWhileUnderReview, type StoredOwner} from '../domain/kyc-records.js'
import {invalid, validate} from '../http-error.js'
import {newId} from '../ids.js'
import {paginate} from '../paging.js'
import type {Router} from '../router.js'

/** Beneficial owners, directors and officers of a business (spec 2.2; api-gaps 2.1). */
export function registerBeneficialOwners(router: Router): void {
  router.handle('createBeneficialOwner', (req, ctx) => {
    const input = validate(beneficialOwnerCreate, req.body)
    const c = getCustomer(ctx, input.customerId)
    if (c.customerType !== 'BUSINESS')
      throw invalid([
        {field: 'customerId', message: `${c.id} is an INDIVIDUAL; beneficial owners belong to BUSINESS customers`},
      ])
    refuseWhileUnderReview(c, 'owners')
    const declared = ownersOf(ctx, c.id).reduce((sum, o) => sum + o.ownershipPercentage, 0)
    if (declared + input.ownershipPercentage > 100) {
      throw invalid([
        {
          field: 'ownershipPercentage',
          message: `${declared}% is declared already; ${input.ownershipPercentage}% more would exceed 100%`,
        },
      ])
    }
    const now = ctx.iso()
    const owner: StoredOwner = {
      id: newId('BeneficialOwner'),
      ...input,
      kycStatus: 'UNVERIFIED',
      createdAt: now,
      updatedAt: now,
    }
    ctx.db.put('beneficialOwners', owner.id, owner)
    return {status: 201, body: publicOwner(owner)}
  })

  router.handle('listBeneficialOwners', (req, ctx) => {
    const customerId = req.query.get('customerId')
    if (!customerId) throw invalid([{field: 'customerId', message: 'is required'}])
    return {status: 200, body: paginate(ownersOf(ctx, customerId).map(publicOwner), req.query)}
  })

  router.handle('getBeneficialOwner', (req, ctx) => ({
    status: 200,
    body: publicOwner(getOwner(ctx, req.params.beneficialOwnerId)),
  }))

  // Frozen while the business is under review, like adding owners and documents.
  router.handle('updateBeneficialOwner', (req, ctx) => {
    const owner = getOwner(ctx, req.params.beneficialOwnerId)
    const patch = validate(beneficialOwnerUpdate, req.body ?? {})
    refuseWhileUnderReview(getCustomer(ctx, owner.customerId), 'owners', 'changed')
    const {address, ...info} = patch.personalInfo ?? {}
    const merged = {
      ...owner.personalInfo,
      ...info,
      ...(address ? {address: {...(owner.personalInfo.address as object), ...address}} : {}),
    }
    if (address) validate(addressSchema, merged.address, 'personalInfo.address')
    if (patch.ownershipPercentage !== undefined) {
      const others = ownersOf(ctx, owner.customerId)
        .filter((o) => o.id !== owner.id)
        .reduce((sum, o) => sum + o.ownershipPercentage, 0)
      if (others + patch.ownershipPercentage > 100) {
        throw invalid([
          {
            field: 'ownershipPercentage',
            message: `the other owners declare ${others}%; ${patch.ownershipPercentage}% would exceed 100%`,
          },
        ])
      }
    }
    const next: StoredOwner = {
      ...owner,
      ...(patch.roles ? {roles: patch.roles} : {}),
      ...(patch.ownershipPercentage !== undefined ? {ownershipPercentage: patch.ownershipPercentage} : {}),
      personalInfo: merged,
      updatedAt: ctx.iso(),
    }
    ctx.db.put('beneficialOwners', owner.id, next)
    return {status: 200, body: publicOwner(next)}
  })
}
