import {idMessage, idRegex} from './id-format.js'
import {z} from './mini.js'

// The answers' schemas, in zod's mini build (mini.ts says why). The request schemas (customer.ts)
// and the list filters (customer-query.ts) build their enums from the same lists.
export const VERIFICATION_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const

const verificationStatus = z.enum(VERIFICATION_STATUSES)
const contactStatus = z.enum(['PENDING', 'VERIFIED'])

/** Response: loose, the spec leaves much of it open. */
export const customerSchema = z.looseObject({
  // readOnly and not required in the contract's Customer: a real answer carries both
  id: z.optional(z.string().check(z.regex(idRegex('Customer'), {message: idMessage('Customer')}))),
  platformCustomerId: z.string(),
  customerType: z.enum(CUSTOMER_TYPES),
  umaAddress: z.optional(z.string()),
  kycStatus: z.optional(verificationStatus),
  kybStatus: z.optional(verificationStatus),
  fullName: z.optional(z.string()),
  email: z.optional(z.string()),
  phoneNumber: z.optional(z.string()),
  region: z.optional(z.string()),
  currencies: z.optional(z.array(z.string())),
  contactVerification: z.optional(z.looseObject({email: z.optional(contactStatus), phone: z.optional(contactStatus)})),
  businessInfo: z.optional(z.looseObject({legalName: z.string()})),
  endUserTermsConsent: z.optional(z.looseObject({termsVersion: z.string()})),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
})
export type Customer = z.infer<typeof customerSchema>

export const endUserTermsSchema = z.looseObject({version: z.string(), url: z.string()})
