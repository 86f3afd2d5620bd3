import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {Contract, REPO_ROOT} from '../../helpers/contract.js'
import {checkExchanges, type Exchange} from '../../helpers/contract-check.js'
import {
  FIDELITY_PATH,
  countLine,
  documentedAnswers,
  gapOf,
  producedFromDoc,
  renderFidelity,
} from '../../helpers/fidelity.js'

let contract: Contract
beforeAll(async () => {
  contract = await Contract.load()
})

const exchange = (x: Partial<Exchange>): Exchange => ({
  test: 't',
  method: 'GET',
  path: '/customers/Customer:1',
  query: [],
  requestContentType: '',
  requestBody: undefined,
  fromCli: false,
  status: 404,
  responseContentType: 'application/json',
  responseBody: undefined,
  ...x,
})

describe('answers: the contract check counts documented (operation, status) pairs', () => {
  it('counts a pair as produced, and as valid only when its body matches the schema for that status', () => {
    const notFound = {status: 404, code: 'USER_NOT_FOUND', message: 'Customer Customer:1 not found', details: {}}
    const r = checkExchanges(contract, [
      exchange({responseBody: {...notFound, reason: notFound.message}}),
      exchange({responseBody: {...notFound, reason: notFound.message}}),
      // the spec's reading alone: the contract's Error404 requires message and status
      exchange({
        method: 'GET',
        path: '/quotes/Quote:1',
        responseBody: {code: 'QUOTE_NOT_FOUND', reason: 'x', details: {}},
      }),
      // not documented for this operation: counted nowhere
      exchange({method: 'GET', path: '/quotes/Quote:1', status: 418, responseBody: {}}),
    ])
    expect(r.answers).toEqual({
      'GET /customers/{customerId} 404': {seen: 2, valid: 2},
      'GET /quotes/{quoteId} 404': {seen: 1, valid: 0},
    })
    expect(r.findings.map((f) => f.errors).flat()).toEqual(
      expect.arrayContaining([
        "(body) must have required property 'message'",
        'status 418 is not a documented answer of GET /quotes/{quoteId}',
      ]),
    )
  })

  it('a 405 to a method the path does not take counts for the operations of that path that document 405', () => {
    const r = checkExchanges(contract, [
      exchange({
        method: 'PUT',
        path: '/customers',
        status: 405,
        responseBody: {status: 405, code: 'METHOD_NOT_ALLOWED', message: 'm', reason: 'm', details: {}},
      }),
    ])
    expect(r.answers).toEqual({'GET /customers 405': {seen: 1, valid: 1}, 'POST /customers 405': {seen: 1, valid: 1}})
  })

  it('the line counts valid pairs of the non-5xx documented ones', () => {
    const all = documentedAnswers(contract.doc)
    const counted = all.filter((a) => !a.status.startsWith('5')).length
    expect(all.length).toBeGreaterThan(counted)
    expect(
      countLine(contract.doc, {
        'GET /customers/{customerId} 404': {seen: 2, valid: 2},
        'GET /quotes/{quoteId} 404': {seen: 1, valid: 0},
        'GET /customers/{customerId} 500': {seen: 1, valid: 1},
      }),
    ).toBe(`1 of ${counted} documented answers (5xx aside)`)
  })

  it('every documented answer not produced has a reason', () => {
    for (const a of documentedAnswers(contract.doc))
      expect(gapOf(a).why.length, `${a.operation} ${a.status}`).toBeGreaterThan(20)
  })
})

describe(FIDELITY_PATH, () => {
  const text = readFileSync(join(REPO_ROOT, FIDELITY_PATH), 'utf8')

  it('is not stale: re-rendered from the answers it records, the contract and the reasons, it is the same text', () => {
    const produced = producedFromDoc(text)
    expect(Object.keys(produced).length).toBeGreaterThan(100)
    expect(renderFidelity(contract.doc, produced)).toBe(text)
  })

  it('opens with the line npm test prints, and the README links it', () => {
    expect(text.split('\n')[0]).toMatch(/^\d+ of \d+ documented answers \(5xx aside\)$/)
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toMatch(/\(docs\/fidelity\.md\)/)
  })
})
