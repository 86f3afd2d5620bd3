import * as z from 'zod'

/** CustomerInfoFieldName (api-gaps §8): the customer data a counterparty may be asked for. */
export const CUSTOMER_INFO_FIELDS = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const

const minorUnits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

/** PlatformCurrencyConfig as a PATCH /config item (api-gaps §8). */
export const platformCurrencyConfig = z
  .strictObject({
    currencyCode: z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, MXN, USDC ...)'}),
    minAmount: minorUnits,
    maxAmount: minorUnits,
    requiredCounterpartyFields: z
      .array(z.strictObject({name: z.enum(CUSTOMER_INFO_FIELDS), mandatory: z.boolean()}))
      .max(CUSTOMER_INFO_FIELDS.length),
    enabledTransactionTypes: z.array(z.enum(['INCOMING', 'OUTGOING'])).max(2),
    // Read-only in the contract: a config read with GET and sent back keeps working; the values sent are not kept.
    providerRequiredCustomerFields: z.array(z.enum(CUSTOMER_INFO_FIELDS)).optional(),
    providerRequiredCounterpartyCustomerFields: z.array(z.enum(CUSTOMER_INFO_FIELDS)).optional(),
  })
  .refine((c) => c.minAmount <= c.maxAmount, {message: 'must not be above maxAmount', path: ['minAmount']})

/** supportedCurrencies replaces the list whole (unlike feeConfigs, the contract names no merge key); one entry per currency. */
export const supportedCurrenciesPatch = z
  .array(platformCurrencyConfig)
  .max(100)
  .superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((c, i) => {
      if (seen.has(c.currencyCode))
        ctx.addIssue({code: 'custom', path: [i, 'currencyCode'], message: `${c.currencyCode} is listed twice`})
      seen.add(c.currencyCode)
    })
  })

const email = z.email().max(255)

/** CardTokenization2FAConfig (api-gaps §8): partial merge, nested objects too. */
export const cardTokenization2faPatch = z.strictObject({
  displayName: z.string().max(255).optional(),
  logoUrl: z
    .url({protocol: /^https$/})
    .max(512)
    .optional(),
  email: z
    .strictObject({
      fromAddress: email.optional(),
      fromName: z.string().max(255).optional(),
      replyToAddress: email.optional(),
      subject: z.string().max(255).optional(),
      bodyText: z.string().max(2000).optional(),
    })
    .optional(),
  sms: z
    .strictObject({
      templateSid: z.string().max(64).optional(),
      bodyText: z.string().max(480).optional(),
    })
    .optional(),
})
export type CardTokenization2faPatch = z.infer<typeof cardTokenization2faPatch>
