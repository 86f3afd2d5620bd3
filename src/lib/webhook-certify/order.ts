// Order: the Service does not promise order across deliveries, so a terminal event can arrive before
// the PENDING it follows. The receiver must not go back to the older state. Its state shows in what
// it does next: its answer to the stale PENDING payment (a new decision means it took the payment
// for undecided again), and its decision on a payment to the customer whose approval came first.
import {breach} from './approval.js'
import {answered, is2xx, type CaseResult, type Delivery, type Kit} from './kit.js'
import {SPEC_EVENTS} from './spec-events.js'

const example = (type: string) => SPEC_EVENTS.find((e) => e.type === type)!.data
/** An acknowledgement that decides nothing: 2xx other than 202 (which promises a decision), or 409. */
const acknowledged = (d: Delivery) => (is2xx(d) && d.status !== 202) || d.status === 409
const approves = (d: Delivery) => d.status === 200 || d.status === 202

export async function orderCases(kit: Kit): Promise<CaseResult[]> {
  return [await paymentOrder(kit), await kycOrder(kit)]
}

/** COMPLETED, then the same payment's PENDING (large, so a receiver that decides it again says so: it rejects). */
async function paymentOrder(kit: Kit): Promise<CaseResult> {
  const id = kit.objectId('Transaction')
  const customerId = kit.objectId('Customer')
  const pending = example('INCOMING_PAYMENT.PENDING')
  const completed = await kit.send(
    kit.event('INCOMING_PAYMENT.COMPLETED', {...example('INCOMING_PAYMENT.COMPLETED'), id, customerId}),
  )
  const stale = await kit.send(
    kit.event('INCOMING_PAYMENT.PENDING', {
      ...pending,
      id,
      customerId,
      receivedAmount: {...(pending.receivedAmount as object), amount: 9_900_000},
    }),
  )
  const name = 'order: a payment COMPLETED before its PENDING stays COMPLETED'
  const expected = `2xx for COMPLETED; the late PENDING of ${id} acknowledged (200 or 409), not decided again (202, 403, 422)`
  if (!is2xx(completed)) return {name, passed: false, expected, observed: `COMPLETED answered ${answered(completed)}`}
  return {
    name,
    passed: acknowledged(stale),
    expected,
    observed: acknowledged(stale)
      ? `COMPLETED ${answered(completed)}, late PENDING ${answered(stale)}`
      : `late PENDING answered ${answered(stale)}: a new decision on a payment it had seen COMPLETED${breach(stale) ? ` (${breach(stale)})` : ''}`,
  }
}

/** KYC_APPROVED, then the same customer's KYC_PENDING, then a small payment to that customer: it must still be approvable. */
async function kycOrder(kit: Kit): Promise<CaseResult> {
  const customerId = kit.objectId('Customer')
  const customer = example('CUSTOMER.KYC_APPROVED')
  const pending = example('INCOMING_PAYMENT.PENDING')
  const approved = await kit.send(kit.event('CUSTOMER.KYC_APPROVED', {...customer, id: customerId}))
  const stale = await kit.send(kit.event('CUSTOMER.KYC_PENDING', {...customer, id: customerId, kycStatus: 'PENDING'}))
  const payment = await kit.send(
    kit.event('INCOMING_PAYMENT.PENDING', {
      ...pending,
      id: kit.objectId('Transaction'),
      customerId,
      receivedAmount: {...(pending.receivedAmount as object), amount: 1_500},
    }),
  )
  const name = 'order: KYC APPROVED before its PENDING stays APPROVED'
  const expected = `2xx for KYC_APPROVED and the late KYC_PENDING; then a USD 15.00 payment to ${customerId} approved (200, or 202 then approve)`
  const bad = [approved, stale].find((d) => !is2xx(d))
  if (bad)
    return {name, passed: false, expected, observed: `KYC events answered ${answered(approved)}, ${answered(stale)}`}
  return {
    name,
    passed: approves(payment),
    expected,
    observed: approves(payment)
      ? `the payment to ${customerId} answered ${answered(payment)}`
      : `the payment to ${customerId} answered ${answered(payment)}: it treats the customer as PENDING again`,
  }
}
