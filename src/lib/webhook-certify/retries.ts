// Retries: the Service retries an attempt it gave up on; the receiver must take the redelivery, and
// answer within the Service's timeout (a slower 2xx counts as a failure there and is sent again).
import {answered, is2xx, SERVICE_TIMEOUT_MS, type CaseResult, type Kit} from './kit.js'

export async function retryCases(kit: Kit): Promise<CaseResult[]> {
  const e = kit.event('OUTGOING_PAYMENT.FAILED', {
    id: kit.objectId('Transaction'),
    status: 'FAILED',
    type: 'OUTGOING',
    direction: 'DEBIT',
    failureReason: 'QUOTE_EXECUTION_FAILED',
  })
  // The first attempt is abandoned mid-flight, as the Service does at its timeout.
  await kit.send(e, {dropAfterMs: 50})
  const again = await kit.send(e)
  const redelivery: CaseResult = {
    name: 'retries: a redelivery after an abandoned attempt is accepted',
    passed: is2xx(again) || again.status === 409,
    expected: '2xx or 409',
    observed: answered(again),
  }
  return [redelivery]
}

/** Judged over every delivery of the run, after all the other cases. */
export function timelinessCase(kit: Kit): CaseResult {
  const slow = kit.log.filter((l) => l.delivery.ms > SERVICE_TIMEOUT_MS)
  return {
    name: `retries: every answer within the Service's ${SERVICE_TIMEOUT_MS / 1000} s timeout`,
    passed: slow.length === 0,
    expected: `all ${kit.log.length} deliveries answered within ${SERVICE_TIMEOUT_MS} ms`,
    observed: slow.length
      ? slow.map((l) => `${l.type} ${l.event}: ${answered(l.delivery)} after ${l.delivery.ms} ms`).join('; ')
      : `slowest ${Math.max(0, ...kit.log.map((l) => l.delivery.ms))} ms`,
  }
}
