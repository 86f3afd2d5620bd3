import {describe, expect, it} from 'vitest'
import {requiredFields} from '../../../src/lib/flows/customer-prompt.js'

describe('interactive create asks what the create schema requires', () => {
  it('a business: the four required businessInfo fields; an individual: the full name', () => {
    expect(requiredFields('BUSINESS').map((f) => f.path)).toEqual(['businessInfo.legalName', 'businessInfo.country', 'businessInfo.incorporatedOn', 'businessInfo.taxId'])
    expect(requiredFields('INDIVIDUAL').map((f) => f.path)).toEqual(['fullName'])
  })

  it('each answer is checked with the field schema itself', () => {
    const date = requiredFields('BUSINESS').find((f) => f.path === 'businessInfo.incorporatedOn')!.schema
    expect(date.safeParse('2020-01-15').success).toBe(true)
    expect(date.safeParse('15/01/2020').success).toBe(false)
  })
})
