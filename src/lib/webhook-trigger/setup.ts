import {createExternalAccount, fundInternalAccount, listInternalAccounts} from '../api/accounts.js'
import {listPaged} from '../api/paging.js'
import {createCustomer, getCustomer, getEndUserTerms} from '../api/customers.js'
import {addBeneficialOwner, sendDocument, submitVerification} from '../api/kyc.js'
import {createQuote, executeQuote} from '../api/quotes.js'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {fromMinor} from '../money.js'
import type {Customer} from '../schemas/customer.js'
import type {Kit} from './kit.js'

/**
 * Building blocks of the recipes: throwaway customers with complete packets (the sandbox follows the
 * production loop, so a decision needs documents and a submission), accounts, funding and payouts.
 * Names and numbers carry the sandbox's magic suffixes (sandbox-behaviour.md §2, §3, §9).
 */
const ADDRESS = {line1: '1 Main St', city: 'Springfield', postalCode: '94105', country: 'US'}
/** A document is judged by its content; the sandbox does not judge PDFs (only photos). */
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const decided = (s?: string) => s === 'APPROVED' || s === 'REJECTED'

async function consent(kit: Kit) {
  const terms = await kit.client.call(getEndUserTerms())
  return {
    acceptedAt: new Date(kit.ctx.now()).toISOString(),
    ipAddress: '127.0.0.1',
    termsVersion: terms.version,
    acceptanceMethod: 'CHECKBOX' as const,
  }
}

async function passport(kit: Kit, holder: string, number: string): Promise<void> {
  await kit.client.call(
    sendDocument(
      {
        documentHolder: holder,
        documentType: 'PASSPORT',
        country: 'US',
        documentNumber: number,
        issuingAuthority: 'US Department of State',
      },
      {name: 'passport.pdf', bytes: PDF, type: 'application/pdf'},
    ),
  )
}

/** Submits a complete packet; a packet the sandbox finds incomplete is a bug of the recipe (exit 1 naming what was missing). */
async function submit(kit: Kit, id: string): Promise<void> {
  const v = await kit.client.call(submitVerification(id))
  if (v.verificationStatus === 'RESOLVE_ERRORS') {
    throw new SvcError({
      code: 'TRIGGER_SETUP_FAILED',
      exitCode: ExitCode.FAILED,
      message: `The sandbox found ${id}'s packet incomplete: ${v.errors.map((e) => e.type + (e.field ? ` ${e.field}` : '')).join(', ')}`,
      details: {verification: v},
    })
  }
  kit.did(`submitted ${id} for verification (${v.verificationStatus})`)
}

/** An individual with everything KYC asks for, submitted unless the sandbox already decided or began review (skip-paperwork option). */
export async function individual(kit: Kit, o: {nameSuffix?: string; currencies?: string[]} = {}): Promise<Customer> {
  const c = await kit.client.call(
    createCustomer({
      customerType: 'INDIVIDUAL',
      platformCustomerId: kit.key('individual'),
      fullName: `Ada Lovelace${o.nameSuffix ? ` ${o.nameSuffix}` : ''}`,
      email: `ada-${kit.tag}@example.com`,
      birthDate: '1990-01-15',
      nationality: 'US',
      address: ADDRESS,
      idType: 'SSN',
      identifier: '123-45-6789',
      currencies: o.currencies ?? ['USD'],
      endUserTermsConsent: await consent(kit),
    }),
  )
  kit.did(`created individual ${c.id} "${String(c.fullName)}" (terms accepted)`)
  if (c.kycStatus !== 'UNVERIFIED') return c
  await passport(kit, c.id!, 'X1234567')
  kit.did(`uploaded a passport for ${c.id}`)
  await submit(kit, c.id!)
  return c
}

/** A business with a certificate of incorporation and one owner (UBO and control person) with a passport, submitted. */
export async function business(kit: Kit, registrationSuffix: string): Promise<Customer> {
  const c = await kit.client.call(
    createCustomer({
      customerType: 'BUSINESS',
      platformCustomerId: kit.key('business'),
      address: ADDRESS,
      businessInfo: {
        legalName: 'Acme Robotics',
        country: 'US',
        registrationNumber: `REG-${kit.tag}-${registrationSuffix}`,
        incorporatedOn: '2020-01-15',
        taxId: '12-3456789',
      },
      endUserTermsConsent: await consent(kit),
    }),
  )
  const id = c.id!
  kit.did(`created business ${id} (registration number ending in ${registrationSuffix}, terms accepted)`)
  await kit.client.call(
    sendDocument(
      {documentHolder: id, documentType: 'CERTIFICATE_OF_INCORPORATION', country: 'US'},
      {name: 'certificate.pdf', bytes: PDF, type: 'application/pdf'},
    ),
  )
  const owner = await kit.client.call(
    addBeneficialOwner({
      customerId: id,
      roles: ['UBO', 'CONTROL_PERSON'],
      ownershipPercentage: 60,
      personalInfo: {
        firstName: 'Ana',
        lastName: 'Ruiz',
        birthDate: '1980-02-03',
        nationality: 'US',
        address: ADDRESS,
        idType: 'SSN',
        identifier: '123-45-6789',
      },
    }),
  )
  await passport(kit, owner.id, 'X7654321')
  kit.did(`added a certificate of incorporation and owner ${owner.id} with a passport`)
  await submit(kit, id)
  return c
}

/** Waits for the sandbox's KYC decision (decisionDelayMs after review began). */
export async function decision(kit: Kit, id: string): Promise<Customer> {
  return kit.until(
    `the KYC decision on ${id}`,
    () => kit.client.call(getCustomer(id)),
    (c) => decided(c.kycStatus ?? c.kybStatus),
  )
}

/** An APPROVED individual and its internal account in `currency`. */
export async function approvedIndividual(kit: Kit, currency = 'USD'): Promise<{customer: Customer; accountId: string}> {
  const created = await individual(kit, {currencies: [currency]})
  const customer = decided(created.kycStatus) ? created : await decision(kit, created.id!)
  if (customer.kycStatus !== 'APPROVED')
    throw new SvcError({
      code: 'TRIGGER_SETUP_FAILED',
      exitCode: ExitCode.FAILED,
      message: `${customer.id} was ${customer.kycStatus}, not APPROVED`,
    })
  kit.did(`${customer.id} is APPROVED`)
  const list = await listPaged(kit.client, listInternalAccounts({customerId: customer.id, currency}), {limit: 10})
  const account =
    list.data.find((a) => a.balance?.currency?.code === currency && a.type !== 'EMBEDDED_WALLET') ?? list.data[0]
  if (!account)
    throw new SvcError({
      code: 'TRIGGER_SETUP_FAILED',
      exitCode: ExitCode.FAILED,
      message: `${customer.id} has no ${currency} internal account`,
    })
  return {customer, accountId: account.id}
}

/** Sandbox fund (POST /sandbox/internal-accounts/{id}/fund): INCOMING_PAYMENT.COMPLETED follows. */
export async function fund(kit: Kit, accountId: string, amount: number): Promise<void> {
  const a = await kit.client.call(fundInternalAccount(accountId, amount))
  const code = String(a.balance?.currency?.code ?? '')
  const decimals = Number(a.balance?.currency?.decimals ?? 2)
  kit.did(
    `funded ${accountId} with ${code} ${fromMinor(amount, decimals)} (balance ${fromMinor(Number(a.balance?.amount ?? 0), decimals)})`,
  )
}

/** A third-party US bank account whose number ends in `suffix` (the payout pattern, sandbox-behaviour.md §9). */
export async function bankAccount(kit: Kit, customerId: string, suffix: string): Promise<string> {
  const accountNumber = `${Date.now() % 1_000_000}`.padStart(6, '0') + suffix
  const a = await kit.client.call(
    createExternalAccount({
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber,
        routingNumber: '021000021',
        bankName: 'Chase',
        beneficiary: {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia'},
      },
    }),
  )
  kit.did(`added bank account ${a.id} (account number ending in ${suffix})`)
  return a.id
}

/** Approved, funded with USD 100.00, a bank account ending in `suffix`, a USD 10.00 quote to it: the quote, not yet executed. */
export async function payoutQuote(kit: Kit, suffix: string) {
  const {customer, accountId} = await approvedIndividual(kit)
  await fund(kit, accountId, 10_000)
  const to = await bankAccount(kit, customer.id!, suffix)
  const q = await kit.client.call({
    ...createQuote({
      source: {sourceType: 'ACCOUNT', accountId},
      destination: {destinationType: 'ACCOUNT', accountId: to},
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      description: 'svc webhooks trigger',
    }),
    idempotencyKey: kit.key('quote'),
  })
  kit.did(`quoted USD 10.00 to ${to}: ${q.id}`)
  return {customer, accountId, quote: q}
}

/** payoutQuote, executed (the payment starts PROCESSING and settles by the pattern). */
export async function payout(kit: Kit, suffix: string) {
  const made = await payoutQuote(kit, suffix)
  const q = await kit.client.call({...executeQuote(made.quote.id), idempotencyKey: kit.key('execute')})
  kit.did(`executed ${q.id} (${q.status})`)
  return {...made, quote: q}
}
