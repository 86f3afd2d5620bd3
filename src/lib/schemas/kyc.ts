import * as z from 'zod'
import {addressSchema, countryCode, e164, email, idOf, isoDate} from './common.js'
import {idTypeEnum, verificationStatusEnum} from './customer.js'
import {withArticle} from '../article.js'

/** Onboarding shapes (spec 2.2-2.4, api-gaps 1.8 and 2), shared by `svc kyc` and the local sandbox. */

export const kycLinkRequest = z.strictObject({
  redirectUri: z.url({protocol: /^https?$/, message: 'must be an http(s) URL'}).optional(),
})

export const kycLinkSchema = z.looseObject({
  kycUrl: z.string(),
  expiresAt: z.string(),
  provider: z.string(),
  token: z.string().optional(),
})

export const confirmCodeRequest = z.strictObject({
  code: z.string().regex(/^[A-Za-z0-9]{4,12}$/, {message: 'must be the 4-12 character code that was sent'}),
})

export const ownerRoleEnum = z.enum([
  'UBO',
  'DIRECTOR',
  'COMPANY_OFFICER',
  'CONTROL_PERSON',
  'TRUSTEE',
  'GENERAL_PARTNER',
])

export const personalInfoSchema = z.strictObject({
  firstName: z.string().min(1).max(250),
  middleName: z.string().min(1).max(250).optional(),
  lastName: z.string().min(1).max(250),
  birthDate: isoDate,
  nationality: countryCode,
  email: email.optional(),
  phoneNumber: e164.optional(),
  address: addressSchema,
  idType: idTypeEnum,
  identifier: z.string().min(4).max(50),
  countryOfIssuance: countryCode.optional(),
})

export const beneficialOwnerCreate = z.strictObject({
  customerId: idOf('Customer'),
  roles: z
    .array(ownerRoleEnum)
    .min(1, {message: 'must name at least one role'})
    .refine((r) => new Set(r).size === r.length, {message: 'must not repeat a role'}),
  // The published API takes an integer 0..100 (api-gaps 2.1); the sandbox refuses what the Service would.
  ownershipPercentage: z.number().int({message: 'must be a whole percentage'}).min(0).max(100),
  personalInfo: personalInfoSchema,
})
export type BeneficialOwnerCreate = z.infer<typeof beneficialOwnerCreate>

/**
 * PATCH /beneficial-owners/{id}: only the fields given change; personalInfo merges field by field
 * and its address too (the merged address must still be complete, which the sandbox checks).
 */
export const beneficialOwnerUpdate = z.strictObject({
  roles: beneficialOwnerCreate.shape.roles.optional(),
  ownershipPercentage: beneficialOwnerCreate.shape.ownershipPercentage.optional(),
  personalInfo: personalInfoSchema.extend({address: addressSchema.partial()}).partial().optional(),
})
export type BeneficialOwnerUpdate = z.infer<typeof beneficialOwnerUpdate>

export const beneficialOwnerSchema = z.looseObject({
  id: idOf('BeneficialOwner'),
  customerId: z.string(),
  roles: z.array(z.string()),
  ownershipPercentage: z.number(),
  personalInfo: z.looseObject({firstName: z.string(), lastName: z.string()}),
  kycStatus: verificationStatusEnum,
  createdAt: z.string(),
})
export type BeneficialOwner = z.infer<typeof beneficialOwnerSchema>

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const
export const documentTypeEnum = z.enum(DOCUMENT_TYPES)
export type DocumentType = z.infer<typeof documentTypeEnum>

export const IDENTITY_DOCUMENTS: readonly DocumentType[] = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID']
/** Two images (FRONT and BACK) for these; one for a passport (spec 4.2 rule 5). */
export const TWO_SIDED: readonly DocumentType[] = ['DRIVERS_LICENSE', 'NATIONAL_ID']
export const LEGAL_PRESENCE_DOCUMENTS: readonly DocumentType[] = [
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
]

const documentMetaFields = {
  documentType: documentTypeEnum,
  country: countryCode,
  side: z.enum(['FRONT', 'BACK']).optional(),
  documentNumber: z.string().min(1).max(100).optional(),
  issuingAuthority: z.string().min(1).max(200).optional(),
}

/** Identity documents need a number and an issuing authority; two-sided ones need a side, others none. */
function documentRules(
  d: {documentType?: DocumentType; side?: string; documentNumber?: string; issuingAuthority?: string},
  ctx: z.RefinementCtx,
) {
  if (!d.documentType) return
  if (IDENTITY_DOCUMENTS.includes(d.documentType)) {
    if (!d.documentNumber)
      ctx.addIssue({
        code: 'custom',
        path: ['documentNumber'],
        message: `is required for ${withArticle(d.documentType)}`,
      })
    if (!d.issuingAuthority)
      ctx.addIssue({
        code: 'custom',
        path: ['issuingAuthority'],
        message: `is required for ${withArticle(d.documentType)}`,
      })
  }
  if (TWO_SIDED.includes(d.documentType) && !d.side)
    ctx.addIssue({
      code: 'custom',
      path: ['side'],
      message: `is required for ${withArticle(d.documentType)}: upload FRONT and BACK`,
    })
  if (!TWO_SIDED.includes(d.documentType) && d.side)
    ctx.addIssue({code: 'custom', path: ['side'], message: `applies only to ${TWO_SIDED.join(' and ')}`})
}

const ALWAYS = {when: () => true}

/** The text parts of a `POST /documents` multipart body. */
export const documentUploadFields = z
  .strictObject({
    documentHolder: z.union([idOf('Customer'), idOf('BeneficialOwner')], {
      message: 'must be a Customer: or BeneficialOwner: id',
    }),
    ...documentMetaFields,
  })
  .superRefine(documentRules, ALWAYS)
export type DocumentUploadFields = z.infer<typeof documentUploadFields>

/** `PUT /documents/{documentId}`: the same minus the holder. */
export const documentReplaceFields = z.strictObject(documentMetaFields).superRefine(documentRules, ALWAYS)

export const documentSchema = z.looseObject({
  id: idOf('Document'),
  documentHolder: z.string(),
  documentType: z.string(),
  side: z.string().optional(),
  country: z.string(),
  documentNumber: z.string().optional(),
  issuingAuthority: z.string().optional(),
  fileName: z.string(),
  createdAt: z.string(),
})
export type Document = z.infer<typeof documentSchema>

export const verificationRequest = z.strictObject({customerId: idOf('Customer')})

export const verificationErrorSchema = z.looseObject({
  resourceId: z.string(),
  type: z.string(),
  field: z.string().optional(),
  acceptedDocumentTypes: z.array(z.string()).optional(),
  reason: z.string(),
})
export type VerificationError = z.infer<typeof verificationErrorSchema>

export const verificationSchema = z.looseObject({
  id: idOf('Verification'),
  customerId: z.string(),
  // The seed names IN_PROGRESS and RESOLVE_ERRORS; the published API has more, so stay lenient.
  verificationStatus: z.string(),
  errors: z.array(verificationErrorSchema),
  createdAt: z.string(),
})
export type Verification = z.infer<typeof verificationSchema>

export const verificationListQuery = z.strictObject({
  customerId: idOf('Customer').optional(),
  verificationStatus: z.enum(['IN_PROGRESS', 'RESOLVE_ERRORS']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})
