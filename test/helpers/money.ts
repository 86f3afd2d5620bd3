import {secp256k1} from '@noble/curves/secp256k1.js'
import {keccak_256} from '@noble/hashes/sha3.js'
import {hex} from '@scure/base'
import {expect} from 'vitest'
import {clabeCheckDigit} from '../../src/lib/account-checks.js'
import type {TestSandbox} from './sandbox.js'
import {TERMS} from './process-sandbox.js'

/** Direct HTTP to the sandbox (setup steps that are not under test). */
export async function api(
  sbx: TestSandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const auth = Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')
  const res = await fetch(sbx.url + path, {
    method,
    headers: {
      authorization: `Basic ${auth}`,
      ...(body !== undefined ? {'content-type': 'application/json'} : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return {status: res.status, body: text ? JSON.parse(text) : undefined}
}

/**
 * An APPROVED customer with terms on file and internal accounts per currency. The status is written
 * straight into the sandbox store so these tests do not depend on the KYC state machine.
 */
export async function approvedCustomer(
  sbx: TestSandbox,
  currencies: string[],
  opts: {terms?: boolean; name?: string} = {},
) {
  const r = await api(sbx, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: opts.name ?? 'Ada Lovelace',
    currencies,
  })
  if (r.status !== 201) throw new Error(`customer create failed: ${JSON.stringify(r.body)}`)
  const id = r.body.id as string
  approveInStore(sbx, id, opts)
  const accounts = sbx.emu.db
    .all<{id: string; customerId: string; balance: {currency: {code: string}}}>('internalAccounts')
    .filter((a) => a.customerId === id)
  const account = (code: string) => accounts.find((a) => a.balance.currency.code === code)!.id
  return {id, account}
}

/** Marks a customer APPROVED (and, unless `terms: false`, with terms on file) directly in the sandbox store. */
export function approveInStore(sbx: TestSandbox, customerId: string, opts: {terms?: boolean} = {}): void {
  const stored = sbx.emu.db.get<Record<string, unknown>>('customers', customerId)!
  const consent =
    opts.terms === false
      ? {}
      : {
          endUserTermsConsent: {
            acceptedAt: new Date().toISOString(),
            ipAddress: '127.0.0.1',
            termsVersion: '2025-10-01',
            acceptanceMethod: 'CHECKBOX',
          },
        }
  sbx.emu.db.put('customers', customerId, {...stored, kycStatus: 'APPROVED', ...consent})
}

/** A valid CLABE ending in `suffix` (the sandbox's magic last three digits; the last is the check digit). */
export function clabeEnding(suffix: string): string {
  for (let i = 0; i < 1000; i++) {
    const first = `002010${String(i).padStart(9, '0')}${suffix.slice(0, 2)}`
    if (clabeCheckDigit(first) === Number(suffix[2])) return first + suffix[2]
  }
  throw new Error(`no CLABE ends in ${suffix}`)
}

/*
 * CLI argument builders: the commands the money tests run again and again, so that each test spells out only the
 * flags it is about. Each returns a fresh array; append flags (`--json`, `--execute` …) as further arguments.
 */

/** `svc quote create --from <from> --to <to> …flags`. */
export const quoteArgs = (from: string, to: string, ...flags: string[]) => [
  'quote',
  'create',
  '--from',
  from,
  '--to',
  to,
  ...flags,
]

/** `svc quote create --realtime --customer <customer> …flags` (a just-in-time quote, funded by an instruction). */
export const realtimeQuoteArgs = (customer: string, ...flags: string[]) => [
  'quote',
  'create',
  '--realtime',
  '--customer',
  customer,
  ...flags,
]

/** `svc accounts external add --customer <customer> …flags`. */
export const externalAddArgs = (customer: string, ...flags: string[]) => [
  'accounts',
  'external',
  'add',
  '--customer',
  customer,
  ...flags,
]

/** `svc accounts external add` of a CLABE account: `--type CLABE --clabe <clabe> --beneficiary-name <name> …flags`. */
export const clabeAccountArgs = (customer: string, clabe: string, name: string, ...flags: string[]) =>
  externalAddArgs(customer, '--type', 'CLABE', '--clabe', clabe, '--beneficiary-name', name, ...flags)

/** Ada Lovelace's USD account at Chase as `svc accounts external add` flags (the beneficiary name left to the test). */
export const CHASE_USD_FLAGS = [
  '--type',
  'USD_ACCOUNT',
  '--account-number',
  '123456789',
  '--routing-number',
  '021000021',
  '--bank-name',
  'Chase',
]

export const beneficiary = {beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Garcia', nationality: 'MX'}

/** Ada Lovelace's US bank account: the body of POST /customers/external-accounts. */
export const usdBankAccount = (customerId: string) => ({
  customerId,
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT' as const,
    accountNumber: '99887766',
    routingNumber: '021000021',
    beneficiary: {beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace'},
  },
})

/** Maria Garcia's CLABE account (ending in `suffix`) added the operator's way, `svc accounts external add` (exit 0 asserted); its id. */
export async function clabeBeneficiary(
  sbx: TestSandbox,
  customerId: string,
  suffix = '123',
  extra: string[] = [],
): Promise<string> {
  const r = await sbx.run(clabeAccountArgs(customerId, clabeEnding(suffix), 'Maria Garcia', ...extra, '--json'))
  expect(r.code, r.stderr).toBe(0)
  return r.json().id as string
}

/** An approved payer whose USD account holds USD 1,000.00, and a CLABE beneficiary to pay (`dest`). */
export async function fundedPayer(sbx: TestSandbox, currencies = ['USD', 'MXN']) {
  const c = await approvedCustomer(sbx, currencies)
  await api(sbx, 'POST', `/sandbox/internal-accounts/${encodeURIComponent(c.account('USD'))}/fund`, {amount: 100_000})
  return {...c, dest: await clabeBeneficiary(sbx, c.id)}
}

/** Σ totalBalance + inTransit + paidOut − fundedIn per currency (all zero when money is conserved). */
export async function imbalance(sbx: TestSandbox): Promise<Record<string, number>> {
  const {imbalance: compute} = await import('../../src/emulator/domain/ledger.js')
  return compute(sbx.emu)
}

/** An internal account's available balance in minor units, read from the sandbox's store. */
export const balanceOf = (sbx: TestSandbox, accountId: string) =>
  sbx.emu.db.get<{balance: {amount: number}}>('internalAccounts', accountId)!.balance.amount

/** An internal account as the sandbox stores it: available (`balance`) and total, in minor units. */
export const storedAccount = (sbx: TestSandbox, accountId: string) =>
  sbx.emu.db.get<{balance: {amount: number}; totalBalance: {amount: number}}>('internalAccounts', accountId)!

/**
 * Fills an internal account until only `room` smallest units are left below 2^53 - 1, as money that
 * came in (the ledger's fundedIn grows with it, so money stays conserved). The API's fund caps each
 * call far below that, so the store is written directly: setup, not the behaviour under test.
 */
export function nearTheTop(sbx: TestSandbox, accountId: string, room: number): void {
  const db = sbx.emu.db
  const a = db.get<{balance: {amount: number; currency: {code: string}}; totalBalance: {amount: number}}>(
    'internalAccounts',
    accountId,
  )!
  const delta = Number.MAX_SAFE_INTEGER - room - a.totalBalance.amount
  const code = a.balance.currency.code
  const t = db.get<{fundedIn: number; paidOut: number; inTransit: number}>('ledger', code) ?? {
    fundedIn: 0,
    paidOut: 0,
    inTransit: 0,
  }
  db.put('ledger', code, {...t, currency: code, fundedIn: t.fundedIn + delta})
  db.put('internalAccounts', accountId, {
    ...a,
    balance: {...a.balance, amount: a.balance.amount + delta},
    totalBalance: {...a.totalBalance, amount: a.totalBalance.amount + delta},
  })
}

/** The webhooks of one type the sandbox has emitted, oldest first. */
export const webhookEvents = (sbx: TestSandbox, type: string) => sbx.emu.webhooks.list().filter((e) => e.type === type)

/** Money is conserved: every currency's ledger sums to zero. */
export async function expectConserved(sbx: TestSandbox): Promise<void> {
  expect(Object.values(await imbalance(sbx)).filter((v) => v !== 0)).toEqual([])
}

export async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const start = Date.now()
  for (;;) {
    const v = await fn()
    if (ok(v) || Date.now() - start > timeoutMs) return v
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** `svc stablecoins burn` flags: USD 100.00 worth, paid out by wire to the external account `bank`. */
export const wireBurnFlags = (bank: string) => [
  '--amount-minor',
  '10000',
  '--source',
  'EXTERNAL_ACCOUNT',
  '--to',
  bank,
  '--rail',
  'WIRE',
]

/** `svc stablecoins mint` flags: USD 100.00 worth, funded by ACH debit from the external account `bank`, sent `to`. */
export const achMintFlags = (bank: string, to: string) => [
  '--amount-minor',
  '10000',
  '--funding',
  'ACH_DEBIT',
  '--funding-account',
  bank,
  '--to',
  to,
]

/** A raw HTTP caller of one sandbox: process-sandbox's `client(…).call` or multi-sandbox's `as(creds)`. */
type Call = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{status: number; body?: any}>

/**
 * Quotes USD 5.00 from the payer's USD account to its own CLABE account and executes it (idempotency key from the
 * quote): the many-writes request the crash and branching tests fire while something else happens. The ids when the
 * execution was acknowledged (200); undefined when the quote or the execution was refused.
 */
export async function payOwnClabe(
  call: Call,
  payer: {usd: string; clabe: string},
): Promise<{quoteId: string; transactionId: string} | undefined> {
  const q = await call('POST', '/quotes', {
    source: {sourceType: 'ACCOUNT', accountId: payer.usd},
    destination: {destinationType: 'ACCOUNT', accountId: payer.clabe},
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 500,
  })
  if (q.status !== 201) return undefined
  const ex = await call('POST', `/quotes/${q.body.id}/execute`, undefined, {'idempotency-key': `x-${q.body.id}`})
  return ex.status === 200 ? {quoteId: q.body.id, transactionId: ex.body.transactionId} : undefined
}

/**
 * Over raw HTTP (no CLI): an approved payer named `fullName` whose USD account holds `funded` minor units, and its own
 * CLABE account (Maria Garcia's) to pay: what the crash and branching tests' money moves need.
 */
export async function httpPayer(
  call: Call,
  fullName: string,
  funded: number,
): Promise<{id: string; usd: string; clabe: string}> {
  expect((await call('PATCH', '/config', {isRegulatedFinancialInstitution: true})).status).toBe(200)
  const made = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'payer',
    fullName,
    currencies: ['USD', 'MXN'],
    kycStatus: 'APPROVED',
    endUserTermsConsent: TERMS,
  })
  expect(made.status).toBe(201)
  const accounts = await call('GET', `/internal-account?customerId=${made.body.id}`)
  const usd = accounts.body.data.find((a: {balance: {currency: {code: string}}}) => a.balance.currency.code === 'USD')
    .id as string
  expect((await call('POST', `/sandbox/internal-accounts/${usd}/fund`, {amount: funded})).status).toBe(200)
  const ext = await call('POST', '/customers/external-accounts', {
    customerId: made.body.id,
    currency: 'MXN',
    accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding('123'), beneficiary},
  })
  expect(ext.status).toBe(201)
  return {id: made.body.id, usd, clabe: ext.body.id}
}

/** A real EVM key: its address and an EIP-191 personal_sign over a message (r||s||v hex, v = 27/28). */
export function evmWallet() {
  const utf8 = (s: string) => new TextEncoder().encode(s)
  const sk = secp256k1.utils.randomSecretKey()
  const pub = secp256k1.getPublicKey(sk, false)
  const address = '0x' + hex.encode(keccak_256(pub.slice(1)).slice(12))
  const sign = (message: string) => {
    const m = utf8(message)
    const digest = keccak_256(new Uint8Array([...utf8(`\x19Ethereum Signed Message:\n${m.length}`), ...m]))
    const sig = secp256k1.sign(digest, sk, {prehash: false, format: 'recovered'})
    return '0x' + hex.encode(new Uint8Array([...sig.slice(1), sig[0] + 27]))
  }
  return {address, sign}
}
