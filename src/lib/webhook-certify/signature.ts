// Authenticity: the Service's signature (X-Service-Signature, ECDSA P-256 over the raw body) is checked.
import {answered, is2xx, is4xx, type CaseResult, type Kit} from './kit.js'

const data = (kit: Kit) => ({id: kit.objectId('Customer'), kycStatus: 'APPROVED'})

export async function signatureCases(kit: Kit): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  const valid = kit.event('CUSTOMER.KYC_APPROVED', data(kit))
  const ok = await kit.send(valid)
  results.push({
    name: 'signature: a valid signature is accepted',
    passed: is2xx(ok),
    expected: '2xx',
    observed: answered(ok),
  })
  const refusals: Array<[string, (body: string) => {body: string; headers: Record<string, string>}]> = [
    [
      'signed with the wrong key',
      (body) => ({body, headers: {'x-service-signature': kit.signature(body, kit.wrongKey)}}),
    ],
    [
      'a tampered body',
      (body) => ({
        body: body.replace('"APPROVED"', '"REJECTED"'),
        headers: {'x-service-signature': kit.signature(body)},
      }),
    ],
    ['a missing header', (body) => ({body, headers: {}})],
    ['a malformed header', (body) => ({body, headers: {'x-service-signature': 'not base64 at all: !!'}})],
  ]
  for (const [what, make] of refusals) {
    const sent = make(JSON.stringify(kit.event('CUSTOMER.KYC_APPROVED', data(kit))))
    const d = await kit.post(sent.body, sent.headers)
    results.push({
      name: `signature: ${what} is refused`,
      passed: is4xx(d),
      expected: '4xx',
      observed: answered(d),
    })
  }
  return results
}
