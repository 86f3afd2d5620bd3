import {beneficialOwnerCreate} from '../../lib/schemas/kyc.js'
import {getCustomer} from '../domain/customers.js'
import {getOwner, ownersOf, publicOwner, refuseWhileUnderReview, type StoredOwner} from '../domain/kyc-records.js'
import type {Emulator} from '../emulator.js'
import {invalid, validate} from '../http-error.js'
import {newId} from '../ids.js'
import {paginate} from '../paging.js'
import type {Router} from '../router.js'

/** Beneficial owners, directors and officers of a business (spec 2.2; api-gaps 2.1). */
export function registerBeneficialOwners(router: Router, emu: Emulator): void {
  router.post('/beneficial-owners', (req) => {
    const input = validate(beneficialOwnerCreate, req.body)
    const c = getCustomer(emu, input.customerId)
    if (c.customerType !== 'BUSINESS') throw invalid([{field: 'customerId', message: `${c.id} is an INDIVIDUAL; beneficial owners belong to BUSINESS customers`}])
    refuseWhileUnderReview(c, 'owners')
    const declared = ownersOf(emu, c.id).reduce((sum, o) => sum + o.ownershipPercentage, 0)
    if (declared + input.ownershipPercentage > 100) {
      throw invalid([{field: 'ownershipPercentage', message: `${declared}% is declared already; ${input.ownershipPercentage}% more would exceed 100%`}])
    }
    const now = emu.iso()
    const owner: StoredOwner = {id: newId('BeneficialOwner'), ...input, kycStatus: 'UNVERIFIED', createdAt: now, updatedAt: now}
    emu.db.put('beneficialOwners', owner.id, owner)
    return {status: 201, body: publicOwner(owner)}
  })

  router.get('/beneficial-owners', (req) => {
    const customerId = req.query.get('customerId')
    if (!customerId) throw invalid([{field: 'customerId', message: 'is required'}])
    return {status: 200, body: paginate(ownersOf(emu, customerId).map(publicOwner), req.query)}
  })

  router.get('/beneficial-owners/:beneficialOwnerId', (req) => ({status: 200, body: publicOwner(getOwner(emu, req.params.beneficialOwnerId))}))
}
