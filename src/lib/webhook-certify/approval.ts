// The pending-payment approval contract: for a PENDING INCOMING_PAYMENT on an approval rail the
// receiver's answer is the decision; a SWIFT (bank-rail) pending payment is informational.
import {answered, is2xx, type CaseResult, type Delivery, type Kit} from './kit.js'
import {SPEC_EVENTS} from './spec-events.js'

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** GridError: `code` and `message` strings (403 and 422 bodies extend it). */
const isGridError = (b: Record<string, unknown> | undefined) =>
  typeof b?.code === 'string' && typeof b.message === 'string' && b.message !== ''

/** Why an answer breaks the contract, or undefined when it keeps it. */
export function breach(d: Delivery): string | undefined {
  const body = parse(d.body)
  if (d.status === 200 || d.status === 202) return undefined
  if (d.status === 403) return isGridError(body) ? undefined : '403 without an Error body (code, message)'
  if (d.status === 422) {
    const fields = body?.requiredFields
    return isGridError(body) && Array.isArray(fields) && fields.length > 0
      ? undefined
      : '422 without an Error body listing requiredFields'
  }
  return `${answered(d)} is not a decision (200, 202, 403, 422)`
}

export async function approvalCases(kit: Kit): Promise<CaseResult[]> {
  const example = SPEC_EVENTS.find((e) => e.type === 'INCOMING_PAYMENT.PENDING')!.data
  const txId = () => kit.objectId('Transaction')
  const results: CaseResult[] = []
  // Two payments, a small one and one a careful receiver may well reject, so both paths are seen.
  for (const [label, amount] of [
    ['a small', 1_500],
    ['a large', 9_900_000],
  ] as const) {
    const e = kit.event('INCOMING_PAYMENT.PENDING', {
      ...example,
      id: txId(),
      receivedAmount: {...(example.receivedAmount as object), amount},
    })
    const d = await kit.send(e)
    const why = breach(d)
    results.push({
      name: `approval: ${label} pending payment gets a decision by the contract`,
      passed: why === undefined,
      expected: '200 approves, 403 with an Error body rejects, 422 lists requiredFields, 202 then approve/reject',
      observed: why ?? `${answered(d)}${d.status === 202 ? ' (the approve/reject call back is not observed)' : ''}`,
    })
  }
  const swift = kit.event('INCOMING_PAYMENT.PENDING', {
    ...example,
    id: txId(),
    destination: {destinationType: 'ACCOUNT', accountId: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002'},
    // A wire to the account's funding coordinates: no UMA addresses, nothing requested.
    senderUmaAddress: undefined,
    receiverUmaAddress: undefined,
    requestedReceiverCustomerInfoFields: undefined,
    reconciliationInstructions: {reference: 'SWIFT MT103 REF-CERTIFY'},
  })
  const d = await kit.send(swift)
  results.push({
    name: 'approval: a SWIFT pending payment is informational and does not block',
    passed: is2xx(d),
    expected: '2xx (nothing to approve: the funds moved interbank)',
    observed: answered(d),
  })
  return results
}
