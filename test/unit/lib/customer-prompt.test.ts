import {describe, expect, it} from 'vitest'
import {answerProblem, requiredFields} from '../../../src/lib/workflows/customer/prompt.js'
import {businessCreate} from '../../../src/lib/schemas/customer.js'

describe('interactive create asks what the create schema requires', () => {
  it('a business: the four required businessInfo fields; an individual: the full name', () => {
    expect(requiredFields('BUSINESS').map((f) => f.path)).toEqual([
      'businessInfo.legalName',
      'businessInfo.country',
      'businessInfo.incorporatedOn',
      'businessInfo.taxId',
    ])
    expect(requiredFields('INDIVIDUAL').map((f) => f.path)).toEqual(['fullName'])
  })

  it('each answer is checked with the field schema itself', () => {
    const date = requiredFields('BUSINESS').find((f) => f.path === 'businessInfo.incorporatedOn')!.schema
    expect(date.safeParse('2020-01-15').success).toBe(true)
    expect(date.safeParse('15/01/2020').success).toBe(false)
  })
})

describe('answers are judged by the whole create schema', () => {
  const body = {customerType: 'BUSINESS', businessInfo: {legalName: 'Acme', country: 'US'}}
  it('a tax id that does not fit the country typed before it', () => {
    expect(answerProblem(businessCreate, body, 'businessInfo.taxId', '123')).toBe('must be a US EIN (e.g. 12-3456789)')
    expect(answerProblem(businessCreate, body, 'businessInfo.taxId', '12-3456789')).toBeUndefined()
  })
  it('an answer that makes a value given earlier wrong names that value and its flag', () => {
    const given = {customerType: 'BUSINESS', businessInfo: {legalName: 'Acme', taxId: '123'}}
    expect(answerProblem(businessCreate, given, 'businessInfo.country', 'US')).toBe(
      'taxId (--tax-id) must be a US EIN (e.g. 12-3456789)',
    )
    expect(answerProblem(businessCreate, given, 'businessInfo.country', 'FR')).toBeUndefined() // no format known for FR
  })
})
