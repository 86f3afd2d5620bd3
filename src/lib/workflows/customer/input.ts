import * as z from 'zod'
import {InputError, type FieldError} from '../../errors.js'
import {io} from '../../io.js'
import {birthDateErrors} from '../../schemas/birth-date.js'
import {nameMissingFlags} from '../../missing-flags.js'
import {
  businessCreate,
  customerCreateRequest,
  customerUpdateRequest,
  individualCreate,
  type CustomerCreateRequest,
  type CustomerUpdateRequest,
} from '../../schemas/customer.js'
import {checkWith, compact} from '../../validate.js'
import {FLAG_OF} from './prompt.js'
import {addressFromFlags, type AddressFlagValues} from '../../flags-address.js'

/** Typed flags shared by `customers create` and `customers update`, mapped onto the API body. */
export interface CustomerFlagValues extends AddressFlagValues {
  type?: string
  'full-name'?: string
  email?: string
  phone?: string
  'birth-date'?: string
  nationality?: string
  'id-type'?: string
  identifier?: string
  region?: string
  currency?: string[]
  'platform-id'?: string
  'legal-name'?: string
  country?: string
  'tax-id'?: string
  'incorporated-on'?: string
  'registration-number'?: string
  'entity-type'?: string
  'primary-contact-first-name'?: string
  'primary-contact-last-name'?: string
}

/** Merges `--data` JSON with typed flags (flags win) into a request body. */
export function customerBody(f: CustomerFlagValues, data: Record<string, unknown> = {}): Record<string, unknown> {
  const address = addressFromFlags(f)
  const businessInfo = compact({
    legalName: f['legal-name'],
    country: f.country,
    taxId: f['tax-id'],
    incorporatedOn: f['incorporated-on'],
    registrationNumber: f['registration-number'],
    entityType: f['entity-type'],
    primaryContactFirstName: f['primary-contact-first-name'],
    primaryContactLastName: f['primary-contact-last-name'],
  })
  const body: Record<string, unknown> = {
    ...data,
    ...compact({
      customerType: f.type?.toUpperCase(),
      platformCustomerId: f['platform-id'],
      fullName: f['full-name'],
      email: f.email,
      phoneNumber: f.phone,
      birthDate: f['birth-date'],
      nationality: f.nationality,
      idType: f['id-type']?.toUpperCase(),
      identifier: f.identifier,
      region: f.region,
      currencies: f.currency?.length ? f.currency.map((c) => c.toUpperCase()) : undefined,
    }),
  }
  if (Object.keys(address).length) body.address = {...(data.address as object), ...address}
  if (Object.keys(businessInfo).length) body.businessInfo = {...(data.businessInfo as object), ...businessInfo}
  return body
}

/** The same schemas the sandbox uses: every bad field is reported before anything is sent. */
export const checkCreate = (body: unknown): CustomerCreateRequest => checkWith(customerCreateRequest, body)

// The API takes an individual with no name (spec/api-gaps.md: all optional), but such a customer can
// never pass KYC (the name is what verification checks), so `customers create` asks for one.
// `svc api POST /customers` still sends whatever the contract allows.
const namedIndividual = individualCreate.extend({
  fullName: z
    .string()
    .max(250)
    .refine((name) => /\S/.test(name), {message: 'an individual needs a name (given and family name)'}),
})

const machineToday = (): string => new Date(io().now()).toISOString()

/** Every complaint about a body at once: the schema's, then the birth date's (a real date but not a possible one). */
function checkAll<T>(schema: z.ZodType<T>, body: unknown): T {
  const extra = birthDateErrors(body, machineToday())
  let errors: FieldError[] = []
  let value: T | undefined
  try {
    value = checkWith(schema, body)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    errors = e.fieldErrors
  }
  for (const x of extra) if (!errors.some((e) => e.field === x.field)) errors.push(x)
  if (errors.length) throw new InputError(errors)
  return value as T
}

/** `customers create` from flags: a field left out is named by its flag (--legal-name), every one at once. */
export function checkCreateFlags(body: Record<string, unknown>): CustomerCreateRequest {
  const individual = body.customerType === 'INDIVIDUAL'
  try {
    return checkAll<CustomerCreateRequest>(individual ? namedIndividual : customerCreateRequest, body)
  } catch (e) {
    if (!(e instanceof InputError) || (!individual && body.customerType !== 'BUSINESS')) throw e
    throw nameMissingFlags(e, body, individual ? namedIndividual : businessCreate, FLAG_OF)
  }
}
export const checkUpdate = (body: unknown): CustomerUpdateRequest =>
  checkAll<CustomerUpdateRequest>(customerUpdateRequest, body)
