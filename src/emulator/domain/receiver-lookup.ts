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
function senderOf(ctx: SandboxContext, s: Sender): StoredCustomer {
  if (s.customerId) return getCustomer(ctx, s.customerId)
  const c = activeByUmaAddress(ctx.db, s.senderUmaAddress!)
  if (!c)
    throw invalid([{field: 'senderUmaAddress', message: `no customer of this platform holds ${s.senderUmaAddress}`}])
  return c
}

/** The currency the sender pays in: its first account currency (USD when it has none). */
function sendingCurrency(ctx: SandboxContext, c: StoredCustomer): string {
  return c.currencies?.[0] ?? internalAccounts(ctx.db, {customerId: c.id})[0]?.balance.currency.code ?? 'USD'
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
function preference(ctx: SandboxContext, from: string, to: string) {
  let rate
  try {
    rate = rateFor(ctx, from, to)
  } catch (e) {
    if (e instanceof HttpError) return undefined // no rate to this currency: not offered
    throw e
  }
  const s = ctx.settings()
  return {
    rate,
    shown: {
      currency: currencyObject(to),
      estimatedExchangeRate: rateNumber(rate),
      min: 1,
      max: s.transactionSizeLimits[to] ?? fromUsdCents(ctx, to, DEFAULT_MAX_USD_CENTS),
    },
  }
}

function record(
  ctx: SandboxContext,
  receiver: string,
  sender: StoredCustomer,
  currencies: string[],
  required: Array<{name: string; mandatory: boolean}>,
) {
  const from = sendingCurrency(ctx, sender)
  const prefs = currencies.map((c) => preference(ctx, from, c)).filter((p) => p !== undefined)
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
    createdAt: ctx.iso(),
  }
  ctx.db.put('receiverLookups', lookupId, stored)
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
export function lookupUmaReceiver(ctx: SandboxContext, address: string, s: Sender): Record<string, unknown> {
  if (!UMA_ADDRESS.test(address))
    throw badRequest('INVALID_UMA_ADDRESS', `"${address}" is not an UMA address ($name@domain)`, {
      receiverUmaAddress: address,
    })
  const sender = senderOf(ctx, s)
  if (isSandboxDomain(address)) {
    const cp = sandboxCounterparty(address)
    if (!cp) throw notFound('UMA_NOT_FOUND', `UMA address ${address}`)
    return {
      receiverUmaAddress: address,
      ...record(
        ctx,
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
  const receiver = activeByUmaAddress(ctx.db, address)
  if (!receiver) throw notFound('UMA_NOT_FOUND', `UMA address ${address}`)
  if (receiver.id === sender.id) throw badRequest('SELF_PAYMENT', `${address} belongs to the sender ${sender.id}`)
  const currencies = [
    ...new Set(internalAccounts(ctx.db, {customerId: receiver.id}).map((a) => a.balance.currency.code)),
  ]
  return {receiverUmaAddress: address, ...record(ctx, address, sender, currencies, [])}
}

/** GET /receiver/external-account/{id}: the account's currency, priced from the sender's. */
export function lookupExternalReceiver(ctx: SandboxContext, accountId: string, s: Sender): Record<string, unknown> {
  const account = getExternalAccount(ctx, accountId)
  const sender = senderOf(ctx, s)
  return {accountId: account.id, ...record(ctx, account.id, sender, [account.currency], [])}
}
