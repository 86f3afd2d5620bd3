// The approval contract's asynchronous path, watched by the sandbox: a real PENDING incoming payment
// is made there, and after a 202 the receiver must approve or reject it in the sandbox within 5 s.
import {breach} from './approval.js'
import {answered, SERVICE_TIMEOUT_MS, type CaseResult, type Kit} from './kit.js'

/** What certify needs from the sandbox (built by the command from the profile's API client). */
export interface SandboxProbe {
  /** A real incoming payment, PENDING for the platform's decision: its public body. */
  pendingPayment(): Promise<Record<string, unknown> & {id: string}>
  status(transactionId: string): Promise<string>
  now(): number
  sleep(ms: number): Promise<void>
}

export async function callbackCases(kit: Kit, probe: SandboxProbe): Promise<CaseResult[]> {
  return [await asyncApproval(kit, probe), await decidedOnce(kit, probe)]
}

async function asyncApproval(kit: Kit, probe: SandboxProbe): Promise<CaseResult> {
  const payment = await probe.pendingPayment()
  const d = await kit.send(kit.event('INCOMING_PAYMENT.PENDING', {...payment, requestedReceiverCustomerInfoFields: []}))
  const name = 'approval: a 202 is followed by approve or reject within 5 s (seen by the sandbox)'
  const expected = `200/403/422 by the contract, or 202 then POST /transactions/${payment.id}/approve or /reject within ${SERVICE_TIMEOUT_MS} ms`
  if (d.status !== 202) {
    const why = breach(d)
    return {name, passed: why === undefined, expected, observed: why ?? `${answered(d)}: decided by the answer`}
  }
  const answeredAt = probe.now()
  let status = await probe.status(payment.id)
  while (status === 'PENDING' && probe.now() - answeredAt < SERVICE_TIMEOUT_MS) {
    await probe.sleep(100)
    status = await probe.status(payment.id)
  }
  const waited = probe.now() - answeredAt
  return {
    name,
    passed: status !== 'PENDING',
    expected,
    observed:
      status === 'PENDING'
        ? `HTTP 202, then no approve or reject: ${payment.id} still PENDING after ${waited} ms`
        : `HTTP 202, then ${payment.id} ${status} within ${waited} ms`,
  }
}

/**
 * Side effects once: one real pending payment's event delivered 3x at once. Each answer that decides
 * (202 promises an approve or reject call, 403 and 422 decide) is one processing of the event; a
 * receiver that dedupes decides once and acknowledges the copies (200 or 409).
 */
async function decidedOnce(kit: Kit, probe: SandboxProbe): Promise<CaseResult> {
  const payment = await probe.pendingPayment()
  const e = kit.event('INCOMING_PAYMENT.PENDING', {...payment, requestedReceiverCustomerInfoFields: []})
  const answers = await Promise.all([0, 1, 2].map(() => kit.send(e)))
  const decisions = answers.filter((d) => d.status === 202 || d.status === 403 || d.status === 422).length
  // Let a promised call back land, so the sandbox's view is the one after the receiver acted.
  const end = probe.now() + SERVICE_TIMEOUT_MS
  let status = await probe.status(payment.id)
  while (status === 'PENDING' && decisions > 0 && probe.now() < end) {
    await probe.sleep(100)
    status = await probe.status(payment.id)
  }
  return {
    name: 'idempotency: one pending payment delivered 3x concurrently is decided once (seen by the sandbox)',
    passed:
      decisions <= 1 &&
      answers.every(
        (d) => d.status !== null && ((d.status >= 200 && d.status < 300) || [403, 409, 422].includes(d.status)),
      ),
    expected: `at most one decision (202, 403 or 422) on ${payment.id}; the copies acknowledged (200 or 409)`,
    observed: `${answers.map(answered).join(', ')}: ${decisions} decision${decisions === 1 ? '' : 's'}; the sandbox holds ${payment.id} ${status}`,
  }
}
