import {describe, expect, it} from 'vitest'
import {ApiClient} from '../../../src/lib/api/client.js'
import {customerSchema} from '../../../src/lib/schemas/customer-response.js'
import {pagedList} from '../../../src/lib/schemas/paging.js'

// This file loads only the mini-built answer schemas (schemas/mini.ts): no classic zod schema is
// built here, so the messages below come from the locale mini.ts sets, as in `svc customers get`.
const client = new ApiClient({baseUrl: 'http://api.test/2025-10-13', timeoutMs: 1000, userAgent: 'svc-test'})

describe('answers parsed with the mini-built schemas', () => {
  it('a customer answer that does not fit names each field in plain words (exit 1)', () => {
    const body = {id: 'Quote:1', customerType: 'INDIVIDUAL', kycStatus: 'MAYBE', currencies: 'USD'}
    expect(() => client.parse(customerSchema, body, 'customer')).toThrow(
      expect.objectContaining({
        code: 'RESPONSE_INVALID',
        exitCode: 1,
        message:
          'The API answered with an unexpected customer: id must be a Customer id (Customer:<id>); platformCustomerId is required; kycStatus must be one of UNVERIFIED, PENDING, APPROVED, REJECTED, HOLD; currencies must be an array',
      }),
    )
  })

  it('a page keeps unknown fields of its items and checks its own (the same words as classic zod)', () => {
    const page = client.parse(
      pagedList(customerSchema),
      {data: [{platformCustomerId: 'p', customerType: 'BUSINESS', extra: 1}], hasMore: false},
      'customer list',
    )
    expect(page.data[0]).toEqual({platformCustomerId: 'p', customerType: 'BUSINESS', extra: 1})
    expect(() =>
      client.parse(pagedList(customerSchema), {data: [], hasMore: 'no', totalCount: 1.5}, 'customer list'),
    ).toThrow('The API answered with an unexpected customer list: hasMore must be a boolean; totalCount must be an int')
  })
})
