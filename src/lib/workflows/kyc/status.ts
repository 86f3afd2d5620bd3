import {getCustomer} from '../../api/customers.js'
import {listPaged} from '../../api/paging.js'
import {latestVerification, listBeneficialOwners} from '../../api/kyc.js'
import type {ApiClient} from '../../api/client.js'
import {ApiError, SvcError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import type {KycStatusView} from '../../output/kyc.js'

/** The customer, its latest submission and (for a business) its owners: what `kyc status` shows. */
export async function loadStatus(client: ApiClient, customerId: string): Promise<KycStatusView> {
  const [customer, verification] = await Promise.all([
    client.call(getCustomer(customerId)),
    latestVerification(client, customerId),
  ])
  const beneficialOwners =
    customer.customerType === 'BUSINESS'
      ? (await listPaged(client, listBeneficialOwners(customerId), {all: true})).data
      : undefined
  return {customer, ...(verification ? {verification} : {}), ...(beneficialOwners ? {beneficialOwners} : {})}
}

/**
 * POST /verifications. A customer that is decided (APPROVED, REJECTED) or under review (PENDING)
 * cannot be submitted: the Service answers 400 INVALID_INPUT naming `customerId` with the status in
 * details. For the operator that is a state, not a typo: exit 6 with the way forward.
 */
export async function explainNotSubmittable<T>(sent: Promise<T>, customerId: string): Promise<T> {
  try {
    return await sent
  } catch (e) {
    const status = e instanceof ApiError && e.status === 400 ? e.details?.status : undefined
    if (typeof status !== 'string' || !['APPROVED', 'REJECTED', 'PENDING'].includes(status)) throw e
    const err = e as ApiError
    const hint =
      status === 'PENDING'
        ? `Wait for the decision: \`svc kyc wait ${customerId}\`.`
        : `The decision is final; \`svc kyc status ${customerId}\` shows it.`
    throw new SvcError({
      code: err.code,
      status: 400,
      exitCode: ExitCode.CONFLICT,
      details: err.details,
      message: err.message,
      hint,
    })
  }
}
