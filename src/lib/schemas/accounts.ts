import * as z from 'zod'
import {
  WALLET_KINDS,
  clabeProblem,
  ibanProblem,
  pixKeyProblem,
  routingChecksumProblem,
  routingProblem,
  walletAddressProblem,
  PIX_KEY_TYPES,
} from '../account-checks.js'
import type {FieldError} from '../errors.js'
import {addressSchema, countryCode, e164, email, idOf, isoDate} from './common.js'
import {fieldErrors} from './field-errors.js'

// The answers live in account-response.ts, so the account lists do not build the request schemas below.
export {
  externalAccountSchema,
  internalAccountSchema,
  ownershipChallengeSchema,
  type ExternalAccountView,
  type InternalAccountView,
  type OwnershipChallenge,
  type PaymentInstruction,
} from './account-response.js'

export const internalAccountId = idOf('InternalAccount')
export const externalAccountId = idOf('ExternalAccount')

const individualBeneficiary = z.strictObject({
  beneficiaryType: z.literal('INDIVIDUAL'),
  fullName: z.string().min(1).max(200),
  birthDate: isoDate.optional(),
  nationality: countryCode.optional(),
  email: email.optional(),
  phoneNumber: e164.optional(),
  countryOfResidence: countryCode.optional(),
  address: addressSchema.optional(),
})
const businessBeneficiary = z.strictObject({
  beneficiaryType: z.literal('BUSINESS'),
  legalName: z.string().min(1).max(250),
  registrationNumber: z.string().max(100).optional(),
  taxId: z.string().max(50).optional(),
  email: email.optional(),
  phoneNumber: e164.optional(),
  countryOfResidence: countryCode.optional(),
  address: addressSchema.optional(),
})
export const beneficiarySchema = z.discriminatedUnion('beneficiaryType', [individualBeneficiary, businessBeneficiary])

/** The platform's own reference, where the contract's usBankAccount example puts it (inside accountInfo). */
const platformRef = {platformAccountId: z.string().min(1).max(100).optional()}

const wallet = (accountType: keyof typeof WALLET_KINDS) =>
  z.strictObject({
    accountType: z.literal(accountType),
    address: z.string().min(1).max(200),
    beneficiary: beneficiarySchema.optional(),
    vaspName: z.string().min(1).max(200).optional(),
    ...platformRef,
  })

/** accountInfo kinds: the spec's (CLABE, L2_WALLET, US bank with wire beneficiary) and the common published ones. */
export const accountInfoSchema = z.discriminatedUnion('accountType', [
  z.strictObject({
    accountType: z.literal('USD_ACCOUNT'),
    accountNumber: z.string().regex(/^[0-9]{1,34}$/, {message: 'must be 1-34 digits'}),
    routingNumber: z.string(),
    bankName: z.string().max(140).optional(),
    bankAccountType: z.enum(['CHECKING', 'SAVINGS']).optional(),
    intermediaryBankName: z.string().max(140).optional(),
    intermediaryRoutingNumber: z.string().optional(),
    fiToFiInformation: z.string().max(210).optional(),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  z.strictObject({
    accountType: z.literal('CLABE'),
    clabeNumber: z.string(),
    bankName: z.string().max(140).optional(),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  z.strictObject({
    accountType: z.literal('MXN_ACCOUNT'),
    clabeNumber: z.string(),
    bankName: z.string().max(140).optional(),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  z.strictObject({
    accountType: z.literal('EUR_ACCOUNT'),
    iban: z.string(),
    swiftCode: z
      .string()
      .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, {message: 'must be an 8 or 11 character BIC'})
      .optional(),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  z.strictObject({
    accountType: z.literal('BRL_ACCOUNT'),
    pixKey: z.string().min(1).max(77),
    pixKeyType: z.enum(PIX_KEY_TYPES),
    taxId: z.string().regex(/^[0-9]{11,14}$/, {message: 'must be 11-14 digits (CPF or CNPJ)'}),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  z.strictObject({
    accountType: z.literal('GBP_ACCOUNT'),
    sortCode: z.string().regex(/^\d{6}$/, {message: 'must be 6 digits'}),
    accountNumber: z.string().regex(/^\d{8}$/, {message: 'must be 8 digits'}),
    beneficiary: beneficiarySchema,
    ...platformRef,
  }),
  wallet('L2_WALLET'),
  wallet('SOLANA_WALLET'),
  wallet('ETHEREUM_WALLET'),
  wallet('BASE_WALLET'),
  wallet('POLYGON_WALLET'),
  wallet('PLASMA_WALLET'),
  wallet('TRON_WALLET'),
])
export type AccountInfo = z.infer<typeof accountInfoSchema>
export const ACCOUNT_TYPES = [
  'USD_ACCOUNT',
  'CLABE',
  'MXN_ACCOUNT',
  'EUR_ACCOUNT',
  'BRL_ACCOUNT',
  'GBP_ACCOUNT',
  ...Object.keys(WALLET_KINDS),
]

export const externalAccountCreateRequest = z.strictObject({
  customerId: idOf('Customer').optional(),
  currency: z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD, MXN, USDC ...)'}),
  platformAccountId: z.string().min(1).max(100).optional(),
  ownershipType: z.enum(['FIRST_PARTY', 'THIRD_PARTY']).optional(),
  defaultUmaDepositAccount: z.boolean().optional(),
  accountInfo: accountInfoSchema,
})
export type ExternalAccountCreateRequest = z.infer<typeof externalAccountCreateRequest>

/** The currency each fiat kind pays out in. */
export const FIAT_KIND_CURRENCY: Record<string, string> = {
  USD_ACCOUNT: 'USD',
  CLABE: 'MXN',
  MXN_ACCOUNT: 'MXN',
  EUR_ACCOUNT: 'EUR',
  BRL_ACCOUNT: 'BRL',
  GBP_ACCOUNT: 'GBP',
}

/** The identifier that names the account (duplicates, sandbox suffix patterns). */
export function primaryIdentifier(info: Record<string, unknown>): string {
  return String(info.clabeNumber ?? info.iban ?? info.pixKey ?? info.address ?? info.accountNumber ?? '')
}

/**
 * Shape plus the per-kind format checks (check digits, checksums, chain formats), every problem at
 * once. Format checks run on the raw input so a bad CLABE is reported next to a missing currency.
 */
export function externalAccountProblems(body: unknown): {
  data?: ExternalAccountCreateRequest
  errors: FieldError[]
  warnings: FieldError[]
} {
  const r = externalAccountCreateRequest.safeParse(body)
  const errors = r.success ? [] : fieldErrors(r.error)
  const raw = (body ?? {}) as Record<string, unknown>
  const info = (raw.accountInfo ?? {}) as Record<string, unknown>
  const add = (field: string, message: string | undefined) => {
    if (!message) return
    const name = `accountInfo.${field}`
    const i = errors.findIndex((e) => e.field === name)
    if (i >= 0) errors.splice(i, 1)
    errors.push({field: name, message})
  }
  const str = (k: string) => (typeof info[k] === 'string' ? (info[k] as string) : undefined)
  const kind = str('accountType') ?? ''
  if (str('clabeNumber') !== undefined) add('clabeNumber', clabeProblem(str('clabeNumber')!))
  if (kind === 'USD_ACCOUNT' && str('routingNumber') !== undefined)
    add('routingNumber', routingProblem(str('routingNumber')!))
  if (str('intermediaryRoutingNumber') !== undefined)
    add('intermediaryRoutingNumber', routingProblem(str('intermediaryRoutingNumber')!))
  // Worth a second look, never a refusal (the spec asks for 9 digits only).
  const warnings: FieldError[] = []
  for (const k of kind === 'USD_ACCOUNT' ? ['routingNumber', 'intermediaryRoutingNumber'] : []) {
    const message = str(k) !== undefined ? routingChecksumProblem(str(k)!) : undefined
    if (message) warnings.push({field: `accountInfo.${k}`, message})
  }
  // The platform's reference may come at the top level or inside accountInfo (the contract's example): one value.
  const infoRef = str('platformAccountId')
  if (infoRef !== undefined && typeof raw.platformAccountId === 'string' && raw.platformAccountId !== infoRef) {
    errors.push({
      field: 'accountInfo.platformAccountId',
      message: `differs from platformAccountId "${raw.platformAccountId}"; give one reference`,
    })
  }
  if (str('iban') !== undefined) add('iban', ibanProblem(str('iban')!))
  if (kind === 'BRL_ACCOUNT' && str('pixKey') !== undefined && str('pixKeyType'))
    add('pixKey', pixKeyProblem(str('pixKey')!, str('pixKeyType')!))
  if (WALLET_KINDS[kind] && str('address') !== undefined) add('address', walletAddressProblem(kind, str('address')!))
  const currency = typeof raw.currency === 'string' ? raw.currency : undefined
  if (currency && kind) {
    const allowed = WALLET_KINDS[kind]?.assets ?? (FIAT_KIND_CURRENCY[kind] ? [FIAT_KIND_CURRENCY[kind]] : undefined)
    if (allowed && !allowed.includes(currency) && !errors.some((e) => e.field === 'currency'))
      errors.push({field: 'currency', message: `must be ${allowed.join(' or ')} for ${kind}`})
  }
  // api-gaps 3.3: an individual beneficiary of an EUR_ACCOUNT or of a wallet needs countryOfResidence.
  const beneficiary = info.beneficiary as Record<string, unknown> | undefined
  if (
    (kind === 'EUR_ACCOUNT' || WALLET_KINDS[kind]) &&
    beneficiary?.beneficiaryType === 'INDIVIDUAL' &&
    beneficiary.countryOfResidence === undefined
  ) {
    errors.push({
      field: 'accountInfo.beneficiary.countryOfResidence',
      message: `is required for an individual beneficiary of ${kind}`,
    })
  }
  if (raw.ownershipType === 'THIRD_PARTY' && WALLET_KINDS[kind] && info.beneficiary === undefined) {
    errors.push({field: 'accountInfo.beneficiary', message: 'is required for a THIRD_PARTY wallet'})
  }
  if (errors.length || !r.success) return {errors, warnings}
  const data =
    infoRef !== undefined && r.data.platformAccountId === undefined ? {...r.data, platformAccountId: infoRef} : r.data
  return {data, errors, warnings}
}

export const ownershipChallengeRequest = z.strictObject({method: z.enum(['WALLET_SIGNATURE', 'LIVENESS'])})
export const ownershipVerifyRequest = z.strictObject({
  signature: z.string().min(1).max(1000),
  signatureScheme: z.enum(['bip137', 'electrum']).optional(),
})

export const externalAccountListQuery = z.strictObject({
  customerId: idOf('Customer').optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3,5}$/)
    .optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

export const fundRequest = z.strictObject({amount: z.number().int().min(1).max(100_000_000_000)})
