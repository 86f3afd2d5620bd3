import * as z from 'zod'
import {idOf} from './ids.js'

export const customerId = idOf('Customer')
export const verificationStatusEnum = z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'])
export const customerTypeEnum = z.enum(['INDIVIDUAL', 'BUSINESS'])

/** Response: loose, the spec leaves much of it open. */
export const customerSchema = z.looseObject({
  // readOnly and not required in the contract's Customer: a real answer carries both
  id: customerId.optional(),
  platformCustomerId: z.string(),
  customerType: customerTypeEnum,
  umaAddress: z.string().optional(),
  kycStatus: verificationStatusEnum.optional(),
  kybStatus: verificationStatusEnum.optional(),
  fullName: z.string().optional(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  region: z.string().optional(),
  currencies: z.array(z.string()).optional(),
  contactVerification: z
    .looseObject({email: z.enum(['PENDING', 'VERIFIED']).optional(), phone: z.enum(['PENDING', 'VERIFIED']).optional()})
    .optional(),
  businessInfo: z.looseObject({legalName: z.string()}).optional(),
  endUserTermsConsent: z.looseObject({termsVersion: z.string()}).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional(),
})
export type Customer = z.infer<typeof customerSchema>

export const endUserTermsSchema = z.looseObject({version: z.string(), url: z.string()})
