import {getCustomer} from '../../api/customers.js'
import {latestVerification, listBeneficialOwners} from '../../api/kyc.js'
import type {ApiClient} from '../../api/client.js'
import type {KycStatusView} from '../../output/kyc.js'

/** The customer, its latest submission and (for a business) its owners: what `kyc status` shows. */
export async function loadStatus(client: ApiClient, customerId: string): Promise<KycStatusView> {
  const [customer, verification] = await Promise.all([getCustomer(client, customerId), latestVerification(client, customerId)])
  const beneficialOwners = customer.customerType === 'BUSINESS' ? (await listBeneficialOwners(client, customerId, {all: true})).data : undefined
  return {customer, ...(verification ? {verification} : {}), ...(beneficialOwners ? {beneficialOwners} : {})}
}
