// Duplicates: the Service delivers at least once and its signature carries no timestamp, so a
// receiver dedupes by event id and never refuses a redelivery as a replay attack.
import {answered, type CaseResult, type Delivery, type Kit} from './kit.js'

const acceptable = (d: Delivery) => d.status === 409 || (d.status !== null && d.status >= 200 && d.status < 300)

function judge(name: string, answers: Delivery[]): CaseResult {
  return {
    name,
    passed: answers.every(acceptable),
    expected: `each of ${answers.length} deliveries answered 2xx or 409`,
    observed: answers.map(answered).join(', '),
  }
}

export async function idempotencyCases(kit: Kit): Promise<CaseResult[]> {
  const balance = (n: number) => ({
    id: kit.objectId('InternalAccount'),
    type: 'INTERNAL_FIAT',
    status: 'ACTIVE',
    balance: {amount: n, currency: {code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2}},
  })
  const results: CaseResult[] = []
  for (const times of [2, 5]) {
    const e = kit.event('INTERNAL_ACCOUNT.BALANCE_UPDATED', balance(10_000 * times))
    const answers: Delivery[] = []
    for (let i = 0; i < times; i++) answers.push(await kit.send(e))
    results.push(judge(`idempotency: the same event ${times}x in a row (a legitimate redelivery)`, answers))
  }
  const e = kit.event('INTERNAL_ACCOUNT.BALANCE_UPDATED', balance(70_000))
  const answers = await Promise.all(Array.from({length: 5}, () => kit.send(e)))
  results.push(judge('idempotency: the same event 5x concurrently (a legitimate redelivery)', answers))
  return results
}
