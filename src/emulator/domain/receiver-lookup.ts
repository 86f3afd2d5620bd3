import {UMA_ADDRESS} from '../../lib/schemas/uma.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {internalAccounts} from '../store/accounts.js'
import {activeByUmaAddress} from '../store/customers.js'
import {getCustomer, type StoredCustomer} from './customers.js'
import {getExternalAccount} from './external-accounts.js'
import {isSandboxDomain, sandboxCounterparty} from './incoming-uma.js'
import {currencyObject} from './internal-accounts.js'
import {fromUsdCents, rateFor, rateNumber} from './rates.js'

const DEFAULT_MAX_USD_CENTS = 100_000_000

type Sender = {customerId?: string; senderUmaAddress?: string}

/** The paying customer: by id (customerId wins), or by its UMA address on this platform. */
function senderOf(emu: SandboxContext, s: Sender): StoredCustomer {
  if (s.customerId) return getCustomer(emu, s.customerId)
  const c = activeByUmaAddress(emu.db, s.senderUmaAddress!)
  if (!c)
    throw invalid([{field: 'senderUmaAddress', message: `no customer of this platform holds ${s.senderUmaAddress}`}])
  return c
}

/** The currency the sender pays in: its first account currency (USD when it has none). */
function sendingCurrency(emu: SandboxContext, c: StoredCustomer): string {
  return c.currencies?.[0] ?? internalAccounts(emu.db, {customerId: c.id})[0]?.balance.currency.code ?? 'USD'
}

/** What a lookup offered, kept so that a quote with its lookupId pays at the rate it showed. */
export interface StoredLookup {
  id: string
  receiver: string
  senderCustomerId: string
  /** The sending currency the rates were priced from. */
  from?: string
  /** Per offered currency: the exact rate (BigInt parts as strings) and the amount range. */
  offered?: Array<{code: string; num: string; den: string; min: number; max: number}>
  requiredPayerDataFields?: Array<{name: string; mandatory: boolean}>
  createdAt: string
}

/** What a receiver accepts in one currency, priced from the sender's currency (spec 19: receiving units per sending unit). */
function preference(emu: SandboxContext, from: string, to: string) {
  let rate
  try {
    rate = rateFor(emu, from, to)
  } catch (e) {
    if (e instanceof HttpError) return undefined // no rate to this currency: not offered
    throw e
  }
  const s = emu.settings()
  return {
    rate,
    shown: {
      currency: currencyObject(to),
      estimatedExchangeRate: rateNumber(rate),
      min: 1,
      max: s.transactionSizeLimits[to] ?? fromUsdCents(emu, to, DEFAULT_MAX_USD_CENTS),
    },
  }
}

function record(
  emu: SandboxContext,
  receiver: string,
  sender: StoredCustomer,
  currencies: string[],
  required: Array<{name: string; mandatory: boolean}>,
) {
  const from = sendingCurrency(emu, sender)
  const prefs = currencies.map((c) => preference(emu, from, c)).filter((p) => p !== undefined)
  const lookupId = newId('Lookup')
  const offered = prefs.map(({rate, shown}) => ({
    code: rate.to,
    num: rate.num.toString(),
    den: rate.den.toString(),
    min: shown.min,
    max: shown.max,
  }))
  const stored: StoredLookup = {
    id: lookupId,
    receiver,
    senderCustomerId: sender.id,
    from,
    offered,
    requiredPayerDataFields: required,
    createdAt: emu.iso(),
  }
  emu.db.put('receiverLookups', lookupId, stored)
  return {
    lookupId,
    supportedCurrencies: prefs.map((p) => p.shown),
    ...(required.length ? {requiredPayerDataFields: required} : {}),
  }
}

/**
 * GET /receiver/uma/{address}: a sandbox counterparty (sandbox-behaviour 11; other names at its
 * domain are UMA_NOT_FOUND), or a customer of this platform by its UMA address. Other domains have
 * no receiver the sandbox can reach: 404 UMA_NOT_FOUND.
 */
export function lookupUmaReceiver(emu: SandboxContext, address: string, s: Sender): Record<string, unknown> {
  if (!UMA_ADDRESS.test(address))
    throw badRequest('INVALID_UMA_ADDRESS', `"${address}" is not an UMA address ($name@domain)`, {
      receiverUmaAddress: address,
    })
  const sender = senderOf(emu, s)
  if (isSandboxDomain(address)) {
    const cp = sandboxCounterparty(address)
    if (!cp) throw notFound('UMA_NOT_FOUND', `UMA address ${address}`)
    return {
      receiverUmaAddress: address,
      ...record(
        emu,
        address,
        sender,
        [cp.currency],
        [
          {name: 'FULL_NAME', mandatory: true},
          {name: 'COUNTRY_OF_RESIDENCE', mandatory: false},
        ],
      ),
    }
  }
  const receiver = activeByUmaAddress(emu.db, address)
  if (!receiver) throw notFound('UMA_NOT_FOUND', `UMA address ${address}`)
  if (receiver.id === sender.id) throw badRequest('SELF_PAYMENT', `${address} belongs to the sender ${sender.id}`)
  const currencies = [
    ...new Set(internalAccounts(emu.db, {customerId: receiver.id}).map((a) => a.balance.currency.code)),
  ]
  return {receiverUmaAddress: address, ...record(emu, address, sender, currencies, [])}
}

/** GET /receiver/external-account/{id}: the account's currency, priced from the sender's. */
export function lookupExternalReceiver(emu: SandboxContext, accountId: string, s: Sender): Record<string, unknown> {
  const account = getExternalAccount(emu, accountId)
  const sender = senderOf(emu, s)
  return {accountId: account.id, ...record(emu, account.id, sender, [account.currency], [])}
}
