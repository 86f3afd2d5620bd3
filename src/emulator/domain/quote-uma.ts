import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, invalid, notFound} from '../http-error.js'
import {internalAccounts} from '../store/accounts.js'
import {activeByUmaAddress} from '../store/customers.js'
import type {UmaReceiver} from '../store/quotes.js'
import {sandboxCounterparty} from './incoming-uma.js'
import type {Outcome} from './payout-patterns.js'
import {rateFor, type Rate} from './rates.js'
import type {StoredLookup} from './receiver-lookup.js'

export type {UmaReceiver}

export interface UmaDestination {
  receiver: UmaReceiver
  currency: string
  rate: Rate
  min: number
  max: number
}

type UmaInput = {
  destination: {umaAddress: string; currency?: string}
  lookupId?: string
  senderCustomerInfo?: Record<string, unknown>
}

/**
 * The destination of a quote to an UMA address (api-gaps 4.2), from the receiver lookup it names:
 * the lookup must be this sender's, for this address; the currency is one it offered (its first
 * when none is named), priced at the rate it showed when the quote sends from the currency the
 * lookup priced from; and every mandatory payer field it asked for must be in senderCustomerInfo.
 */
export function umaDestination(
  ctx: SandboxContext,
  input: UmaInput,
  sender: {customerId: string; currency: string},
): UmaDestination {
  const address = input.destination.umaAddress
  const lookup = ctx.db.get<StoredLookup>('receiverLookups', input.lookupId!)
  if (!lookup)
    throw notFound(
      'LOOKUP_REQUEST_NOT_FOUND',
      `Lookup ${input.lookupId}; look the receiver up first (GET /receiver/uma/${address})`,
    )
  if (lookup.receiver.toLowerCase() !== address.toLowerCase())
    throw invalid([{field: 'lookupId', message: `was made for ${lookup.receiver}, not for ${address}`}])
  if (lookup.senderCustomerId !== sender.customerId)
    throw invalid([
      {field: 'lookupId', message: `was made for the sender ${lookup.senderCustomerId}, not for ${sender.customerId}`},
    ])
  const offered = lookup.offered ?? []
  const pick = input.destination.currency ? offered.find((o) => o.code === input.destination.currency) : offered[0]
  if (!pick) {
    throw badRequest(
      'INVALID_CURRENCY',
      `${address} receives ${offered.map((o) => o.code).join(', ') || 'no currency'} in lookup ${lookup.id}, not ${input.destination.currency}`,
      {offered: offered.map((o) => o.code)},
    )
  }
  const missing = (lookup.requiredPayerDataFields ?? [])
    .filter((f) => f.mandatory && !present(input.senderCustomerInfo?.[f.name]))
    .map((f) => f.name)
  if (missing.length) {
    throw badRequest(
      'MISSING_MANDATORY_USER_INFO',
      `${address} requires payer data: ${missing.join(', ')} (senderCustomerInfo)`,
      {
        lookupId: lookup.id,
        missing,
        errors: missing.map((name) => ({field: `senderCustomerInfo.${name}`, message: 'is required by the receiver'})),
      },
    )
  }
  const rate =
    lookup.from === sender.currency
      ? {from: sender.currency, to: pick.code, num: BigInt(pick.num), den: BigInt(pick.den)}
      : rateFor(ctx, sender.currency, pick.code)
  return {
    receiver: receiverOf(ctx, address, lookup.id, pick.code),
    currency: pick.code,
    rate,
    min: pick.min,
    max: pick.max,
  }
}

const present = (v: unknown) => v !== undefined && v !== null && v !== ''

function receiverOf(ctx: SandboxContext, address: string, lookupId: string, currency: string): UmaReceiver {
  const cp = sandboxCounterparty(address)
  if (cp) return {address, lookupId, behaviour: cp.behaviour}
  const c = activeByUmaAddress(ctx.db, address)
  if (!c) throw notFound('UMA_NOT_FOUND', `UMA address ${address}`) // deleted since the lookup
  const account = internalAccounts(ctx.db, {customerId: c.id, currency})[0]
  if (!account) throw badRequest('INVALID_CURRENCY', `${address} no longer holds a ${currency} account`, {currency})
  return {address, lookupId, customerId: c.id, platformCustomerId: c.platformCustomerId, accountId: account.id}
}

/** The lookup's range for the receiving amount (AMOUNT_OUT_OF_RANGE otherwise). */
export function checkUmaAmount(d: UmaDestination, receiving: number): void {
  if (receiving < d.min || receiving > d.max) {
    throw new HttpError(
      400,
      'AMOUNT_OUT_OF_RANGE',
      `${d.receiver.address} receives ${d.min} to ${d.max} smallest units of ${d.currency}; this quote delivers ${receiving}`,
      {min: d.min, max: d.max, amount: receiving, currency: d.currency},
    )
  }
}

/**
 * What a payment to an UMA receiver does after execute (sandbox-behaviour 11): `$success` completes,
 * `$pending.long` completes after the slow-payment delay (the duration is not given), and
 * `$fail.compliance` fails COMPLIANCE_REJECTED with the funds back. The `$refund` names (our
 * extension, as for incoming payments) fail after delivery with the refund completed or failed.
 * A customer of this platform is credited on completion.
 */
export function umaOutcome(r: UmaReceiver): Outcome {
  switch (r.behaviour) {
    case 'pending':
      return {kind: 'complete', delay: 'slow'}
    case 'fail':
      return {kind: 'fail', reason: 'COMPLIANCE_REJECTED', delay: 'normal'}
    case 'refund':
      return {
        kind: 'fail',
        reason: 'ACCOUNT_CANNOT_RECEIVE',
        delay: 'normal',
        refund: 'COMPLETED',
        refundReason: 'TRANSACTION_FAILED',
      }
    case 'refund_fail':
      return {
        kind: 'fail',
        reason: 'ACCOUNT_CANNOT_RECEIVE',
        delay: 'normal',
        refund: 'FAILED',
        refundReason: 'TRANSACTION_FAILED',
      }
    default:
      return {kind: 'complete', delay: 'normal'}
  }
}
