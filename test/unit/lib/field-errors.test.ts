import {describe, expect, it} from 'vitest'
import {SvcError} from '../../../src/lib/errors.js'
import {customerCreateRequest} from '../../../src/lib/schemas/customer.js'
import {fieldErrors} from '../../../src/lib/schemas/field-errors.js'

const errorsOf = (body: unknown) => {
  const r = customerCreateRequest.safeParse(body)
  expect(r.success).toBe(false)
  return Object.fromEntries(fieldErrors(r.error!).map((e) => [e.field, e]))
}

describe('field errors carry their constraint', () => {
  it('format, pattern, enum, minLength and maxLength where they apply', () => {
    const e = errorsOf({
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'x'.repeat(200),
      fullName: '',
      email: 'nope',
      birthDate: '1990-02-30',
      nationality: 'XX',
      idType: 'PASSPORT',
      phoneNumber: '12',
    })
    expect(e.platformCustomerId.constraint).toEqual({maxLength: 128})
    expect(e.fullName.constraint).toEqual({minLength: 1})
    expect(e.email.constraint).toMatchObject({format: 'email'})
    expect(e.birthDate.constraint).toEqual({format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$'})
    expect(e.nationality.constraint).toMatchObject({pattern: '^[A-Z]{2}$'})
    expect(e.idType.constraint).toEqual({enum: ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID']})
    expect(new RegExp(String(e.phoneNumber.constraint?.pattern)).test('+15551234567')).toBe(true)
  })

  it('a tax id names the pattern of its country', () => {
    const e = errorsOf({
      customerType: 'BUSINESS',
      businessInfo: {legalName: 'Acme', country: 'MX', taxId: 'nope', incorporatedOn: '2020-01-01'},
    })
    expect(Object.keys(e)).toEqual(['businessInfo.taxId'])
    expect(new RegExp(String(e['businessInfo.taxId'].constraint?.pattern)).test('ABC010203XY9')).toBe(true)
  })

  it('a missing or unknown customerType lists the allowed values', () => {
    expect(errorsOf({fullName: 'x'}).customerType.constraint).toEqual({enum: ['INDIVIDUAL', 'BUSINESS']})
    expect(errorsOf({customerType: 'TRUST'}).customerType.constraint).toEqual({enum: ['INDIVIDUAL', 'BUSINESS']})
  })
})

describe('the --json error document', () => {
  it('always has status, code, reason, details and hint, in that order', () => {
    const local = new SvcError({code: 'USAGE', message: 'Missing flag: --type', exitCode: 2}).toDocument()
    expect(Object.keys(local)).toEqual(['status', 'code', 'reason', 'details', 'hint'])
    expect(local).toMatchObject({status: null, details: {}})
    const api = new SvcError({
      code: 'CUSTOMER_NOT_FOUND',
      message: 'gone',
      exitCode: 5,
      status: 404,
      details: {id: 'x'},
    }).toDocument()
    expect(api).toEqual({
      status: 404,
      code: 'CUSTOMER_NOT_FOUND',
      reason: 'gone',
      details: {id: 'x'},
      hint: expect.any(String),
    })
  })
})
