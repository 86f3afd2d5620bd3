import * as z from 'zod'
import {countryCode, dateTime} from './common.js'
import {customerTypeEnum} from './customer-response.js'

/** GET /customers filters (customer.ts re-exports it; `customers list` needs none of the request schemas). */
export const customerListQuery = z.strictObject({
  platformCustomerId: z.string().optional(),
  customerType: customerTypeEnum.optional(),
  createdAfter: dateTime.optional(),
  createdBefore: dateTime.optional(),
  updatedAfter: dateTime.optional(),
  updatedBefore: dateTime.optional(),
  region: countryCode.optional(),
  currency: z.string().optional(),
  umaAddress: z.string().optional(),
  isIncludingDeleted: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().max(200).optional(),
})
