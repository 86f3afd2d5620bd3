import {createHash} from 'node:crypto'
import {base58} from '@scure/base'
import type {QuoteCreateRequest} from '../../lib/schemas/quotes.js'
import {WALLET_KINDS} from '../../lib/account-checks.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {getExternalAccount, type StoredExternalAccount} from './external-accounts.js'
import {checkCustomerDebit, type DebitSite} from './customer-debit.js'
import {feesFor} from './fees.js'
import {currencyObject, fundingInstructionsFor, type InternalAccount} from './internal-accounts.js'
import {getInternalAccount, insufficientFunds} from './ledger.js'
import {checkCreditFits} from './credit-fits.js'
import {checkCustomerReady, checkDestination, checkSize, pickRail} from './quote-rules.js'
import {checkUmaAmount, umaDestination} from './quote-uma.js'
import {convertDown, convertUp, rateFor, rateNumber} from './rates.js'
import {quoteWalletPayload} from './wallet/quote-signing.js'
import type {StoredQuote} from '../store/quotes.js'
export type {StoredQuote}

export function publicQuote(q: StoredQuote): Record<string, unknown> {
  const {_: _internal, ...rest} = q
  return rest
}

/** Reads a quote, turning a PENDING one past `expiresAt` into EXPIRED (the expiry job may not have run yet). */
export function getQuote(ctx: SandboxContext, id: string): StoredQuote {
  const q = ctx.db.get<StoredQuote>('quotes', id)
  if (!q) throw notFound('QUOTE_NOT_FOUND', `Quote ${id}`)
  if (q.status === 'PENDING' && Date.parse(q.expiresAt) <= ctx.now())
    return ctx.db.put('quotes', id, {...q, status: 'EXPIRED'})
  return q
}

interface ResolvedSource {
  kind: StoredQuote['_']['sourceKind']
  currency: string
  customerId: string
  account?: InternalAccount | StoredExternalAccount
}

function resolveSource(ctx: SandboxContext, src: QuoteCreateRequest['source']): ResolvedSource {
  if (src.sourceType === 'REALTIME_FUNDING')
    return {kind: 'REALTIME', currency: src.currency, customerId: src.customerId}
  if (src.accountId.startsWith('InternalAccount:')) {
    const a = getInternalAccount(ctx, src.accountId)
    if (!a.customerId && !src.customerId)
      throw invalid([{field: 'source.customerId', message: 'is required when drawing on a platform-owned account'}])
    if (a.status !== 'ACTIVE') throw new HttpError(409, 'INVALID_STATE_TRANSITION', `${a.id} is ${a.status}`)
    return {
      kind: 'INTERNAL',
      currency: a.balance.currency.code,
      customerId: a.customerId ?? src.customerId!,
      account: a,
    }
  }
  const e = getExternalAccount(ctx, src.accountId)
  // Only US bank accounts can be pulled from (ACH debit).
  if (e.accountInfo.accountType !== 'USD_ACCOUNT')
    throw invalid([
      {
        field: 'source.accountId',
        message: `${e.accountInfo.accountType} accounts cannot be pulled from; use an internal account or real-time funding`,
      },
    ])
  if (!e.customerId)
    throw invalid([{field: 'source.accountId', message: 'is a platform account; name a customer-owned account'}])
  return {kind: 'PULL', currency: e.currency, customerId: e.customerId, account: e}
}

/** Builds and stores a PENDING quote after every quoting rule (spec 4.4); nothing is stored on refusal. */
export function createQuote(
  ctx: SandboxContext,
  input: QuoteCreateRequest,
  opts: {beforeStore?: (q: StoredQuote) => void; site?: DebitSite} = {},
): StoredQuote {
  const src = resolveSource(ctx, input.source)
  const dest = input.destination
  const uma =
    dest.destinationType === 'UMA_ADDRESS' ? umaDestination(ctx, {...input, destination: dest}, src) : undefined
  const destId = dest.destinationType === 'ACCOUNT' ? dest.accountId : undefined
  const destInternal = destId?.startsWith('InternalAccount:') ?? false
  const destInt = destId && destInternal ? getInternalAccount(ctx, destId) : undefined
  const destExt = destId && !destInternal ? getExternalAccount(ctx, destId) : undefined
  if (input.source.sourceType === 'ACCOUNT' && destId === input.source.accountId)
    throw badRequest('SELF_PAYMENT', 'Source and destination are the same account')
  if (destExt && destExt.customerId && destExt.customerId !== src.customerId) {
    throw invalid([
      {
        field: 'destination.accountId',
        message: `belongs to ${destExt.customerId}, not to the paying customer ${src.customerId}`,
      },
    ])
  }
  const to = uma ? uma.currency : destInt ? destInt.balance.currency.code : destExt!.currency
  const from = src.currency
  if (input.platformFeeOverride && from !== 'USD')
    throw invalid([
      {field: 'platformFeeOverride', message: `requires a USD source currency (this quote sends ${from})`},
    ])
  if (input.platformFeeOverride && input.platformFeeOverride.platformFixedFee.currency !== 'USD')
    throw invalid([{field: 'platformFeeOverride.platformFixedFee.currency', message: 'must be USD'}])
  if (input.immediatelyExecute && src.kind === 'REALTIME')
    throw invalid([
      {
        field: 'immediatelyExecute',
        message: 'is only for internal or pullable sources; real-time funded quotes execute when funds arrive',
      },
    ])
  if (input.source.sourceType === 'REALTIME_FUNDING' && ['USDC', 'USDT'].includes(from)) {
    const network = input.source.cryptoNetwork
    const assets = network ? WALLET_KINDS[`${network}_WALLET`]?.assets : undefined
    if (!network)
      throw invalid([
        {field: 'source.cryptoNetwork', message: `is required to fund ${from} in real time (e.g. SOLANA)`},
      ])
    if (!assets?.includes(from))
      throw invalid([{field: 'source.cryptoNetwork', message: `${network} does not carry ${from} here`}])
  }
  const rail = pickRail(destExt, dest.destinationType === 'ACCOUNT' ? dest.paymentRail : undefined)
  const customer = checkCustomerReady(ctx, src.customerId)

  // An UMA quote pays at the rate its lookup showed (when it sends from the currency the lookup priced from).
  const rate = uma?.rate ?? rateFor(ctx, from, to)
  const override = input.platformFeeOverride
    ? {fixed: input.platformFeeOverride.platformFixedFee.amount, bps: input.platformFeeOverride.platformVariableFeeBps}
    : undefined
  let sending: number, receiving: number, fees: {service: number; platform: number}
  if (input.lockedCurrencySide === 'SENDING') {
    sending = input.lockedCurrencyAmount
    // Fees are charged on the converted (net) amount, which depends on the fees: iterate to the fixed
    // point (it settles in a step or two because bps < 100%). sending = net + fees holds exactly.
    fees = feesFor(ctx, {from, to, rail, net: sending, override})
    for (let i = 0; i < 5; i++)
      fees = feesFor(ctx, {from, to, rail, net: Math.max(0, sending - fees.service - fees.platform), override})
    const net = sending - fees.service - fees.platform
    receiving = net > 0 ? convertDown(rate, net, 'lockedCurrencyAmount') : 0
  } else {
    receiving = input.lockedCurrencyAmount
    const net = convertUp(rate, receiving, 'lockedCurrencyAmount')
    fees = feesFor(ctx, {from, to, rail, net, override})
    sending = net + fees.service + fees.platform
  }
  if (receiving <= 0)
    throw badRequest(
      'INVALID_AMOUNT',
      `After fees of ${fees.service + fees.platform} (smallest units of ${from}) nothing would be delivered; send more`,
    )
  checkSize(ctx, from, to, sending, receiving, rail)
  if (uma) checkUmaAmount(uma, receiving)
  if (destExt) checkDestination(ctx, destExt, {code: to, amount: receiving})
  if (destInt) checkCreditFits(ctx, destInt, receiving, 'lockedCurrencyAmount')
  // A UMA receiver of this sandbox is credited when the payment completes: it must fit now.
  if (uma?.receiver.accountId)
    checkCreditFits(ctx, getInternalAccount(ctx, uma.receiver.accountId), receiving, 'lockedCurrencyAmount')
  if (src.kind === 'INTERNAL' && (src.account as InternalAccount).balance.amount < sending)
    throw insufficientFunds(src.account as InternalAccount, sending)

  const id = newId('Quote')
  const now = ctx.now()
  const quote: StoredQuote = {
    id,
    status: 'PENDING',
    createdAt: ctx.iso(now),
    expiresAt: ctx.iso(now + ctx.settings().quoteTtlMs),
    source: input.source,
    destination: uma
      ? {destinationType: 'UMA_ADDRESS', umaAddress: uma.receiver.address, currency: to}
      : {...dest, ...(rail ? {paymentRail: rail} : {})},
    sendingCurrency: currencyObject(from),
    receivingCurrency: currencyObject(to),
    totalSendingAmount: sending,
    totalReceivingAmount: receiving,
    exchangeRate: rateNumber(rate),
    feesIncluded: fees.service + fees.platform,
    platformFeesIncluded: fees.platform,
    ...(src.kind === 'REALTIME'
      ? {paymentInstructions: realtimeInstructions(from, id, input.source)}
      : {transactionId: newId('Transaction')}),
    ...(input.description ? {description: input.description} : {}),
    ...(input.remittanceInformation ? {remittanceInformation: input.remittanceInformation} : {}),
    ...(input.purposeOfPayment ? {purposeOfPayment: input.purposeOfPayment} : {}),
    _: {
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      sourceKind: src.kind,
      sourceAccountType:
        (src.account as InternalAccount | undefined)?.type ??
        (src.account as StoredExternalAccount | undefined)?.accountInfo.accountType,
      sourceAccountId: src.account?.id,
      ...(destId ? {destinationAccountId: destId} : {}),
      destinationInternal: destInternal,
      ...(uma ? {uma: uma.receiver} : {}),
      rail,
      serviceFee: fees.service,
    },
  }
  if (quote._.sourceAccountType === 'EMBEDDED_WALLET') {
    // Spec 4.4 / api-gaps 4.3: an embedded-wallet source is authorised by a stamp over this payload on execute.
    if (input.immediatelyExecute)
      throw invalid([
        {
          field: 'immediatelyExecute',
          message: 'is not allowed for embedded-wallet sources: execute with a wallet signature',
        },
      ])
    quote.paymentInstructions = [
      {
        instructionsNotes:
          'Stamp payloadToSign with an active session key of the source wallet and send it as Service-Wallet-Signature on execute.',
        accountOrWalletInfo: {accountType: 'EMBEDDED_WALLET', payloadToSign: quoteWalletPayload(quote)},
      },
    ]
  }
  // The shared rule for a customer's money (ready, terms, own account, SCA session): customer-debit.ts.
  checkCustomerDebit(ctx, opts.site ?? 'quote.create', {
    customerId: quote._.customerId,
    accountId: quote._.sourceAccountId,
  })
  opts.beforeStore?.(quote) // last refusals (e.g. daily volume for immediate execution) before anything is stored
  ctx.db.put('quotes', id, quote)
  ctx.scheduler.after(ctx.settings().quoteTtlMs, 'quote.expire', {id})
  return quote
}

/** Where the payer sends real-time funds: the currency's deposit details, referenced to this quote. */
function realtimeInstructions(
  currency: string,
  quoteId: string,
  src: QuoteCreateRequest['source'],
): Array<Record<string, unknown>> {
  const network = src.sourceType === 'REALTIME_FUNDING' ? src.cryptoNetwork : undefined
  const note = 'Send exactly totalSendingAmount before expiresAt; the quote executes when the funds arrive.'
  if (network && network !== 'SOLANA') {
    const digest = createHash('sha256')
      .update(quoteId + network)
      .digest()
    const address = ['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA'].includes(network)
      ? '0x' + digest.subarray(0, 20).toString('hex')
      : base58.encode(Buffer.concat([Buffer.from([0x41]), digest.subarray(0, 20)]))
    return [
      {instructionsNotes: note, accountOrWalletInfo: {accountType: `${network}_WALLET`, assetType: currency, address}},
    ]
  }
  return fundingInstructionsFor(currency, quoteId).map((i) => ({...i, instructionsNotes: note}))
}

export function registerQuoteJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('quote.expire', (p) => {
    const q = ctx.db.get<StoredQuote>('quotes', String(p.id))
    if (q?.status === 'PENDING') ctx.db.put('quotes', q.id, {...q, status: 'EXPIRED'})
  })
}
