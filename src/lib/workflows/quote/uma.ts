// Client half: the CLI side of a quote to an UMA address (the sandbox half is src/emulator/domain/quote-uma.ts).
import {getExternalAccount, getInternalAccount} from '../../api/accounts.js'
import type {ApiClient} from '../../api/client.js'
import {getCustomer} from '../../api/customers.js'
import {lookupReceiver} from '../../api/uma.js'
import {InputError, usageError, type FieldError} from '../../errors.js'
import type {Customer} from '../../schemas/customer.js'
import type {UmaFlags} from './uma-flags.js'

/** Payer data the Service names (CustomerInfoFieldName) that a customer record can answer. */
function fromCustomer(c: Customer, name: string): unknown {
  const r = c as {
    fullName?: unknown
    businessInfo?: {legalName?: unknown}
    birthDate?: unknown
    nationality?: unknown
    email?: unknown
    phoneNumber?: unknown
    address?: {country?: unknown}
    customerType?: unknown
  }
  switch (name) {
    case 'FULL_NAME':
      return r.fullName ?? r.businessInfo?.legalName
    case 'COMPANY_LEGAL_NAME':
      return r.businessInfo?.legalName
    case 'BIRTH_DATE':
      return r.birthDate
    case 'NATIONALITY':
      return r.nationality
    case 'EMAIL':
      return r.email
    case 'PHONE_NUMBER':
      return r.phoneNumber
    case 'COUNTRY_OF_RESIDENCE':
      return r.address?.country
    case 'POSTAL_ADDRESS':
      return r.address
    case 'USER_TYPE':
      return r.customerType
    default:
      return undefined
  }
}

export interface UmaTerms {
  destination: {destinationType: 'UMA_ADDRESS'; umaAddress: string; currency?: string}
  lookupId: string
  senderCustomerInfo?: Record<string, unknown>
}

/** The paying customer: --customer, else the owner of the --from account. */
async function payerOf(client: ApiClient, f: UmaFlags): Promise<string> {
  if (f.customer) return f.customer
  const owner = f.from!.startsWith('ExternalAccount:')
    ? (await client.call(getExternalAccount(f.from!))).customerId
    : (await getInternalAccount(client, f.from!)).customerId
  if (!owner) throw usageError(`${f.from} is a platform account: name the paying customer with --customer`)
  return owner
}

/**
 * `--to-uma`: look the receiver up (GET /receiver/uma/{address}) for the paying customer, pick the
 * currency (--to-currency, else the receiver's first), and answer every payer field it asks for:
 * --payer-info NAME=value first, else the customer's record. A mandatory field left unanswered is
 * refused before the quote is requested (exit 2), naming the flag that supplies it.
 */
export async function umaTerms(client: ApiClient, f: UmaFlags, opts: {dryRun?: boolean}): Promise<UmaTerms> {
  const address = f['to-uma']!.trim()
  const given = Object.fromEntries(
    (f['payer-info'] ?? []).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
  )
  // A lookup made before (`svc quote receiver`): the body is then the same on every run, so a retry
  // with the same --idempotency-key is the same request (a fresh lookup would change lookupId).
  if (f['lookup-id']) {
    return {
      destination: {
        destinationType: 'UMA_ADDRESS',
        umaAddress: address,
        ...(f['to-currency'] ? {currency: f['to-currency']} : {}),
      },
      lookupId: f['lookup-id'],
      ...(Object.keys(given).length ? {senderCustomerInfo: given} : {}),
    }
  }
  if (opts.dryRun) {
    throw usageError(
      `--dry-run sends nothing, so ${address} is not looked up, and a quote to an UMA address needs the lookupId that GET /receiver/uma gives`,
      'Give one with --lookup-id (`svc quote receiver <address> --customer <id>` prints it), or drop --dry-run.',
    )
  }
  const customerId = await payerOf(client, f)
  const found = await client.call(lookupReceiver(address, {customerId}))
  const wanted = f['to-currency']
  const offer = wanted
    ? found.supportedCurrencies.find((c) => c.currency.code === wanted)
    : found.supportedCurrencies[0]
  if (!offer) {
    const codes = found.supportedCurrencies.map((c) => c.currency.code)
    throw new InputError([
      {
        field: 'destination.currency',
        message: `${address} receives ${codes.join(', ') || 'no currency'}${wanted ? `, not ${wanted}` : ''}`,
      },
    ])
  }
  const asked = found.requiredPayerDataFields ?? []
  const customer = asked.some((a) => given[a.name] === undefined)
    ? await client.call(getCustomer(customerId))
    : undefined
  const info: Record<string, unknown> = {...given}
  const errors: FieldError[] = []
  for (const a of asked) {
    const v = info[a.name] ?? (customer ? fromCustomer(customer, a.name) : undefined)
    if (v !== undefined && v !== '') info[a.name] = v
    else if (a.mandatory)
      errors.push({
        field: `senderCustomerInfo.${a.name}`,
        message: `is required by ${address} and ${customerId} has none: --payer-info ${a.name}=<value>`,
      })
  }
  if (errors.length) throw new InputError(errors)
  return {
    destination: {destinationType: 'UMA_ADDRESS', umaAddress: address, currency: offer.currency.code},
    lookupId: found.lookupId,
    ...(Object.keys(info).length ? {senderCustomerInfo: info} : {}),
  }
}
