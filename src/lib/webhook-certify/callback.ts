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
  const payment = await probe.pendingPayment()
  const d = await kit.send(kit.event('INCOMING_PAYMENT.PENDING', {...payment, requestedReceiverCustomerInfoFields: []}))
  const name = 'approval: a 202 is followed by approve or reject within 5 s (seen by the sandbox)'
  const expected = `200/403/422 by the contract, or 202 then POST /transactions/${payment.id}/approve or /reject within ${SERVICE_TIMEOUT_MS} ms`
  if (d.status !== 202) {
    const why = breach(d)
    return [{name, passed: why === undefined, expected, observed: why ?? `${answered(d)}: decided by the answer`}]
  }
  const answeredAt = probe.now()
  let status = await probe.status(payment.id)
  while (status === 'PENDING' && probe.now() - answeredAt < SERVICE_TIMEOUT_MS) {
    await probe.sleep(100)
    status = await probe.status(payment.id)
  }
  const waited = probe.now() - answeredAt
  return [
    {
      name,
      passed: status !== 'PENDING',
      expected,
      observed:
        status === 'PENDING'
          ? `HTTP 202, then no approve or reject: ${payment.id} still PENDING after ${waited} ms`
          : `HTTP 202, then ${payment.id} ${status} within ${waited} ms`,
    },
  ]
}
