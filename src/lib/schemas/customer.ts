import * as z from 'zod'
import {addressSchema, countryCode, dateTime, e164, email, isoDate} from './common.js'
import {taxIdPattern, taxIdProblem} from './tax-id.js'
import {verificationStatusEnum} from './customer-response.js'
import {CURRENCIES, CURRENCY_CODES} from '../currencies.js'

// The answers' schemas live in customer-response.ts and the list filters in customer-query.ts: a
// command that only reads customers does not build the request schemas below.
export {
  customerId,
  customerSchema,
  customerTypeEnum,
  endUserTermsSchema,
  verificationStatusEnum,
  type Customer,
} from './customer-response.js'
export {customerListQuery} from './customer-query.js'
export const idTypeEnum = z.enum(['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'])

const purposeOfAccount = z.enum([
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
])
const txCount = z.enum([
  'COUNT_UNDER_10',
  'COUNT_10_TO_100',
  'COUNT_100_TO_500',
  'COUNT_500_TO_1000',
  'COUNT_OVER_1000',
])
const txVolume = z.enum([
  'VOLUME_UNDER_10K',
  'VOLUME_10K_TO_100K',
  'VOLUME_100K_TO_1M',
  'VOLUME_1M_TO_10M',
  'VOLUME_OVER_10M',
])

export const endUserTermsConsentSchema = z.strictObject({
  acceptedAt: dateTime,
  ipAddress: z.string().min(2).max(45),
  termsVersion: z.string().min(1).max(50),
  acceptanceMethod: z.enum(['CHECKBOX', 'CLICK_TO_ACCEPT']),
})

const individualEdd = {
  sourceOfFundsCategories: z
    .array(
      z.enum([
        'SALARY',
        'SELF_EMPLOYMENT_INCOME',
        'INVESTMENT_INCOME',
        'PENSION',
        'RENTAL_INCOME',
        'GIFT',
        'INHERITANCE',
        'LOAN',
        'SAVINGS',
        'SALE_OF_ASSETS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfFundsOtherDescription: z.string().min(1).max(500).optional(),
  sourceOfWealthCategories: z
    .array(
      z.enum([
        'SALARY',
        'BUSINESS_INCOME',
        'INVESTMENTS',
        'INHERITANCE',
        'PROPERTY_SALE',
        'GIFT',
        'RETIREMENT',
        'SAVINGS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfWealthOtherDescription: z.string().min(1).max(500).optional(),
  purposeOfAccount: purposeOfAccount.optional(),
  purposeOfAccountOtherDescription: z.string().min(1).max(500).optional(),
  expectedMonthlyTransactionCount: txCount.optional(),
  expectedMonthlyTransactionVolume: txVolume.optional(),
  annualIncomeRange: z.enum(['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M']).optional(),
  netWorthRange: z
    .enum(['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M'])
    .optional(),
  pepStatus: z.enum(['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE']).optional(),
}

const businessInfoFields = {
  legalName: z.string().min(1).max(250),
  doingBusinessAs: z.string().max(250).optional(),
  country: countryCode,
  registrationNumber: z.string().min(1).max(100).optional(),
  incorporatedOn: isoDate,
  entityType: z
    .enum([
      'SOLE_PROPRIETORSHIP',
      'PARTNERSHIP',
      'LLC',
      'CORPORATION',
      'S_CORPORATION',
      'NON_PROFIT',
      'PUBLICLY_LISTED_COMPANY',
      'TRUST',
      'PRIVATE_FOUNDATION',
      'CHARITY',
      'OTHER',
    ])
    .optional(),
  taxId: z.string().min(1).max(50),
  countriesOfOperation: z.array(countryCode).optional(),
  businessType: z
    .string()
    .regex(/^[A-Z_]+$/)
    .optional(),
  purposeOfAccount: purposeOfAccount.optional(),
  purposeOfAccountOtherDescription: z.string().min(1).max(500).optional(),
  sourceOfFunds: z.string().max(500).optional(),
  sourceOfFundsCategories: z
    .array(
      z.enum([
        'OPERATING_REVENUE',
        'INVESTMENT_INCOME',
        'LOANS',
        'VENTURE_CAPITAL',
        'PERSONAL_SAVINGS',
        'DONATIONS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfFundsOtherDescription: z.string().min(1).max(500).optional(),
  expectedMonthlyTransactionCount: txCount.optional(),
  expectedMonthlyTransactionVolume: txVolume.optional(),
  expectedRecipientJurisdictions: z.array(countryCode).optional(),
  expectedCounterpartyCountries: z.array(countryCode).optional(),
  naicsCode: z
    .string()
    .regex(/^\d{2,6}$/)
    .optional(),
  primaryContactFirstName: z.string().min(1).max(250).optional(),
  primaryContactLastName: z.string().min(1).max(250).optional(),
}

function checkTaxId(info: {country?: unknown; taxId?: unknown}, ctx: z.RefinementCtx) {
  if (typeof info?.country !== 'string' || typeof info.taxId !== 'string') return
  const problem = taxIdProblem(info.country, info.taxId)
  const pattern = taxIdPattern(info.country)
  if (problem)
    ctx.addIssue({
      code: 'custom',
      path: ['taxId'],
      message: problem,
      ...(pattern ? {params: {constraint: {pattern}}} : {}),
    })
}

/** Run the tax-id check even when other fields failed, so every problem is reported at once. */
const ALWAYS = {when: () => true}

export const businessInfoCreate = z.strictObject(businessInfoFields).superRefine(checkTaxId, ALWAYS)
export const businessInfoUpdate = z.strictObject(businessInfoFields).partial().superRefine(checkTaxId, ALWAYS)

const common = {
  platformCustomerId: z.string().min(1).max(128).optional(),
  region: countryCode.optional(),
  currencies: z
    .array(
      z
        .string()
        .regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, USDC ...)'})
        // A well-formed code of no currency (XYZ) would open accounts in a currency that does not exist.
        .refine((code) => !/^[A-Z]{3,5}$/.test(code) || CURRENCIES.has(code), {
          message: `unknown currency (known: ${CURRENCY_CODES.join(', ')})`,
        }),
    )
    .max(20)
    .optional(),
  email: email.optional(),
  phoneNumber: e164.optional(),
  umaAddress: z
    .string()
    .regex(/^\$[a-z0-9._-]+@[a-z0-9.-]+$/i)
    .optional(),
  endUserTermsConsent: endUserTermsConsentSchema.optional(),
}

const individualFields = {
  kycStatus: verificationStatusEnum.optional(),
  fullName: z.string().min(1).max(250).optional(),
  birthDate: isoDate.optional(),
  nationality: countryCode.optional(),
  address: addressSchema.optional(),
  idType: idTypeEnum.optional(),
  identifier: z
    .string()
    .regex(/^(\d{3}-\d{2}-\d{4}|9\d{2}-\d{2}-\d{4})$/, {message: 'must be an SSN or ITIN (###-##-####)'})
    .optional(),
  countryOfIssuance: z.literal('US').optional(),
  ...individualEdd,
}

export const individualCreate = z.strictObject({customerType: z.literal('INDIVIDUAL'), ...common, ...individualFields})
export const businessCreate = z.strictObject({
  customerType: z.literal('BUSINESS'),
  ...common,
  kybStatus: verificationStatusEnum.optional(),
  address: addressSchema.optional(),
  businessInfo: businessInfoCreate,
})

export const customerCreateRequest = z.discriminatedUnion('customerType', [individualCreate, businessCreate])
export type CustomerCreateRequest = z.infer<typeof customerCreateRequest>

const {platformCustomerId: _p, region: _r, ...updatable} = common
export const customerUpdateRequest = z.discriminatedUnion('customerType', [
  z.strictObject({customerType: z.literal('INDIVIDUAL'), ...updatable, ...individualFields}),
  z.strictObject({
    customerType: z.literal('BUSINESS'),
    ...updatable,
    kybStatus: verificationStatusEnum.optional(),
    address: addressSchema.optional(),
    businessInfo: businessInfoUpdate.optional(),
  }),
])
export type CustomerUpdateRequest = z.infer<typeof customerUpdateRequest>
