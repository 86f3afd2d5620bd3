// Coverage: every webhook type of the contract, with the spec's own example body, and a type the
// receiver cannot know yet (the Service adds types; a receiver must not fail on them).
import {answered, is2xx, type CaseResult, type Delivery, type Kit} from './kit.js'
import {SPEC_EVENTS} from './spec-events.js'

/** A PENDING incoming payment's answer is the receiver's decision (see approval.ts); any is tolerated here. */
const DECISIONS = new Set([200, 202, 403, 422])

export async function coverageCases(kit: Kit): Promise<CaseResult[]> {
  const bad: string[] = []
  for (const {type, data} of SPEC_EVENTS) {
    const d: Delivery = await kit.send(kit.event(type, data))
    const ok = type === 'INCOMING_PAYMENT.PENDING' ? d.status !== null && DECISIONS.has(d.status) : is2xx(d)
    if (!ok) bad.push(`${type}: ${answered(d)}`)
  }
  const unknown = await kit.send(kit.event('SVC_CERTIFY.UNKNOWN_TYPE', {id: 'Unknown:certify', note: 'a new type'}))
  return [
    {
      name: `coverage: each of the ${SPEC_EVENTS.length} webhook types of the contract is accepted`,
      passed: bad.length === 0,
      expected: '2xx for each type (INCOMING_PAYMENT.PENDING: a decision, 200/202/403/422)',
      observed: bad.length ? bad.join('; ') : `${SPEC_EVENTS.length} of ${SPEC_EVENTS.length} accepted`,
    },
    {
      name: 'coverage: an unknown event type is tolerated',
      passed: is2xx(unknown),
      expected: '2xx',
      observed: answered(unknown),
    },
  ]
}
