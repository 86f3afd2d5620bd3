import {Flags} from '@oclif/core'
import {WALLET_KINDS} from '../account-checks.js'
import {InputError, type FieldError} from '../errors.js'
import {idFlag, readJsonObject} from '../flags.js'
import {
  ACCOUNT_TYPES,
  FIAT_KIND_CURRENCY,
  externalAccountProblems,
  type ExternalAccountCreateRequest,
} from '../schemas/accounts.js'
import {compact} from '../validate.js'

/** Typed flags per account kind; anything else can come in with --data. */
export const externalAccountFlags = {
  customer: idFlag('Customer', {description: 'owner of the account', name: 'customerId'}),
  type: Flags.string({description: 'account kind', options: ACCOUNT_TYPES}),
  currency: Flags.string({description: "currency paid out (default: the kind's currency; wallets: first asset)"}),
  'platform-account-id': Flags.string({description: 'your own reference'}),
  ownership: Flags.string({
    description: "wallets: FIRST_PARTY (the customer's own; ownership-verified) or THIRD_PARTY",
    options: ['FIRST_PARTY', 'THIRD_PARTY'],
  }),
  clabe: Flags.string({description: 'CLABE: 18 digits with check digit', helpGroup: 'MXN'}),
  'bank-name': Flags.string({description: 'name of the bank holding the account', helpGroup: 'BANK'}),
  'account-number': Flags.string({description: 'US or GB account number', helpGroup: 'BANK'}),
  'routing-number': Flags.string({
    description: 'US ABA routing number (9 digits; a bad checksum is warned about)',
    helpGroup: 'USD',
  }),
  'bank-account-type': Flags.string({
    description: 'US account type',
    options: ['CHECKING', 'SAVINGS'],
    helpGroup: 'USD',
  }),
  'intermediary-bank-name': Flags.string({description: 'wire: intermediary bank', helpGroup: 'USD'}),
  'intermediary-routing-number': Flags.string({description: 'wire: intermediary routing number', helpGroup: 'USD'}),
  'fi-to-fi': Flags.string({description: 'wire: bank-to-bank instructions (fiToFiInformation)', helpGroup: 'USD'}),
  iban: Flags.string({description: 'IBAN (mod-97 checked)', helpGroup: 'EUR'}),
  swift: Flags.string({description: 'BIC (8 or 11)', helpGroup: 'EUR'}),
  'pix-key': Flags.string({description: 'PIX key (checked against --pix-key-type)', helpGroup: 'BRL'}),
  'pix-key-type': Flags.string({
    description: 'kind of PIX key',
    options: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'],
    helpGroup: 'BRL',
  }),
  'tax-id': Flags.string({description: 'BRL: CPF or CNPJ digits', helpGroup: 'BRL'}),
  'sort-code': Flags.string({description: 'UK sort code (6 digits)', helpGroup: 'GBP'}),
  address: Flags.string({description: 'wallet address', helpGroup: 'WALLET'}),
  vasp: Flags.string({description: 'custodial wallet: the VASP name (omit for self-custody)', helpGroup: 'WALLET'}),
  'beneficiary-type': Flags.string({
    description: 'who receives the money',
    options: ['INDIVIDUAL', 'BUSINESS'],
    default: 'INDIVIDUAL',
    helpGroup: 'BENEFICIARY',
  }),
  'beneficiary-name': Flags.string({
    description: 'full name (individual) or legal name (business)',
    helpGroup: 'BENEFICIARY',
  }),
  'beneficiary-birth-date': Flags.string({description: 'individual: YYYY-MM-DD', helpGroup: 'BENEFICIARY'}),
  'beneficiary-nationality': Flags.string({description: 'individual: ISO 3166-1 alpha-2', helpGroup: 'BENEFICIARY'}),
  'beneficiary-country': Flags.string({description: 'country of residence', helpGroup: 'BENEFICIARY'}),
  'beneficiary-email': Flags.string({description: 'contact email', helpGroup: 'BENEFICIARY'}),
  'beneficiary-phone': Flags.string({description: 'contact phone, E.164 (+15551234567)', helpGroup: 'BENEFICIARY'}),
  data: Flags.string({description: 'request body as JSON: inline, @file.json or - (typed flags override it)'}),
}

type F = {[K in keyof typeof externalAccountFlags]?: string}

function beneficiaryOf(f: F): Record<string, unknown> | undefined {
  if (!f['beneficiary-name'] && !f['beneficiary-country'] && !f['beneficiary-email']) return undefined
  const business = f['beneficiary-type'] === 'BUSINESS'
  return compact({
    beneficiaryType: business ? 'BUSINESS' : 'INDIVIDUAL',
    ...(business
      ? {legalName: f['beneficiary-name']}
      : {
          fullName: f['beneficiary-name'],
          birthDate: f['beneficiary-birth-date'],
          nationality: f['beneficiary-nationality'],
        }),
    countryOfResidence: f['beneficiary-country'],
    email: f['beneficiary-email'],
    phoneNumber: f['beneficiary-phone'],
  })
}

/** The flag of each accountInfo field (the body builder reads them, and errors name the flag). */
const INFO_FLAGS = {
  clabeNumber: 'clabe',
  bankName: 'bank-name',
  accountNumber: 'account-number',
  routingNumber: 'routing-number',
  bankAccountType: 'bank-account-type',
  intermediaryBankName: 'intermediary-bank-name',
  intermediaryRoutingNumber: 'intermediary-routing-number',
  fiToFiInformation: 'fi-to-fi',
  iban: 'iban',
  swiftCode: 'swift',
  pixKey: 'pix-key',
  pixKeyType: 'pix-key-type',
  taxId: 'tax-id',
  sortCode: 'sort-code',
  address: 'address',
  vaspName: 'vasp',
} as const satisfies Record<string, keyof F>

const FLAG_OF_FIELD: Record<string, string> = {
  customerId: 'customer',
  currency: 'currency',
  platformAccountId: 'platform-account-id',
  ownershipType: 'ownership',
  'accountInfo.accountType': 'type',
  ...Object.fromEntries(Object.entries(INFO_FLAGS).map(([field, flag]) => [`accountInfo.${field}`, flag])),
}

/**
 * A missing field is named by the flag that sets it (--clabe), the body path in its message for
 * --data users; a bad value keeps its body path (the value is there to see).
 */
function namingFlag(e: FieldError): FieldError {
  const flag = FLAG_OF_FIELD[e.field]
  return flag && /required/i.test(e.message) ? {...e, field: `--${flag}`, message: `${e.message} (${e.field})`} : e
}

/** Flags (over --data) to the create body, then every shape and format check before any request. */
/** The POST body from the flags; `ownerImplied` when the route names the owner (an agent's customer). */
export function externalAccountBody(
  f: F,
  opts: {ownerImplied?: boolean; warn?: (message: string) => void} = {},
): ExternalAccountCreateRequest {
  const data = f.data ? readJsonObject(f.data) : {}
  const dataInfo = (data.accountInfo ?? {}) as Record<string, unknown>
  const type = f.type ?? (dataInfo.accountType as string | undefined)
  const info = compact({
    ...dataInfo,
    accountType: type,
    ...Object.fromEntries(Object.entries(INFO_FLAGS).map(([field, flag]) => [field, f[flag]])),
    beneficiary: beneficiaryOf(f) ?? dataInfo.beneficiary,
  })
  const currency =
    f.currency ??
    (data.currency as string | undefined) ??
    (type ? (FIAT_KIND_CURRENCY[type] ?? WALLET_KINDS[type]?.assets[0]) : undefined)
  const body = compact({
    ...data,
    customerId: f.customer ?? data.customerId,
    currency,
    platformAccountId: f['platform-account-id'] ?? data.platformAccountId,
    ownershipType: f.ownership ?? data.ownershipType,
    accountInfo: info,
  })
  const {data: valid, errors, warnings} = externalAccountProblems(body)
  if (!valid) throw new InputError(errors.map(namingFlag))
  if (!valid.customerId && !opts.ownerImplied)
    throw new InputError([{field: 'customerId', message: 'is required (--customer)'}])
  for (const w of warnings) opts.warn?.(`${w.field} ${w.message} (sent anyway: the Service checks 9 digits only)`)
  return valid
}
