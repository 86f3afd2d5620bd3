import type {SandboxContext} from '../context.js'
import type {EmuRequest} from '../router.js'
import {HttpError, badRequest, conflict, invalid} from '../http-error.js'
import {WALLET_KINDS} from '../../lib/account-checks.js'
import {getCustomer} from './customers.js'
import {getExternalAccount} from './external-accounts.js'
import {arriveInTransit, getInternalAccount, hold} from './ledger.js'
import {quoteOutcome, type Outcome} from './payout-patterns.js'
import {checkCustomerDebit, type DebitSite} from './customer-debit.js'
import {checkCreditFits} from './credit-fits.js'
import {addDailyVolume, checkDailyVolume} from './quote-rules.js'
import {getQuote, type StoredQuote} from './quotes.js'
import {umaOutcome} from './quote-uma.js'
import {startOutgoing, type Funding, type StoredTransaction} from './transactions.js'

function expired(ctx: SandboxContext, q: StoredQuote): HttpError {
  if (q.status === 'PENDING') ctx.db.put('quotes', q.id, {...q, status: 'EXPIRED'})
  return badRequest('QUOTE_EXPIRED', `${q.id} expired at ${q.expiresAt}; create a new quote`, {expiresAt: q.expiresAt})
}

export function outgoing(
  ctx: SandboxContext,
  q: StoredQuote,
  id: string,
  funding: Funding | undefined,
  o: {status: string; agentId?: string; pendingApproval?: boolean; source?: Record<string, unknown>; outcome?: Outcome},
): StoredTransaction {
  const uma = q._.uma
  const dest =
    q._.destinationInternal || !q._.destinationAccountId ? undefined : getExternalAccount(ctx, q._.destinationAccountId)
  const wallet = dest && WALLET_KINDS[dest.accountInfo.accountType] ? dest.accountInfo.accountType : undefined
  const network =
    q.source.sourceType === 'REALTIME_FUNDING' ? (q.source.cryptoNetwork as string | undefined) : undefined
  const now = ctx.iso()
  return {
    id,
    status: o.status,
    type: 'OUTGOING',
    direction: 'DEBIT',
    customerId: q._.customerId,
    platformCustomerId: q._.platformCustomerId,
    source: o.source ?? {...q.source, currency: q.sendingCurrency.code},
    destination: uma
      ? {destinationType: 'UMA_ADDRESS', umaAddress: uma.address, currency: q.receivingCurrency.code}
      : {destinationType: 'ACCOUNT', accountId: q._.destinationAccountId, currency: q.receivingCurrency.code},
    sentAmount: {amount: q.totalSendingAmount, currency: q.sendingCurrency},
    receivedAmount: {amount: q.totalReceivingAmount, currency: q.receivingCurrency},
    fees: q.feesIncluded,
    platformFees: q.platformFeesIncluded,
    exchangeRate: q.exchangeRate,
    quoteId: q.id,
    ...(q.description ? {description: q.description} : {}),
    paymentRail: q._.rail ?? null,
    ...(o.agentId ? {agentId: o.agentId} : {}),
    ...(o.pendingApproval ? {pendingReason: 'COMPLIANCE_REVIEW'} : {}),
    createdAt: now,
    updatedAt: now,
    _: {
      funding,
      outcome:
        o.outcome ??
        (uma ? umaOutcome(uma) : dest ? quoteOutcome(dest.accountInfo) : {kind: 'complete', delay: 'normal'}),
      ...(q._.destinationInternal ? {destinationInternal: q._.destinationAccountId} : {}),
      ...(uma?.accountId
        ? {
            umaReceiver: {
              customerId: uma.customerId!,
              platformCustomerId: uma.platformCustomerId!,
              accountId: uma.accountId,
              senderUma: senderUmaOf(ctx, q._.customerId),
            },
          }
        : {}),
      ...(wallet ? {destinationWallet: wallet} : {}),
      ...(network ? {sourceNetwork: network} : {}),
    },
  }
}

/** The paying customer's UMA address: the source of the money its receiver on this platform gets. */
function senderUmaOf(ctx: SandboxContext, customerId: string): string {
  return String(getCustomer(ctx, customerId).umaAddress)
}

/**
 * POST /quotes/{id}/execute: before expiry, debits the source at once (a hold until settlement) and
 * starts the payment. A quote executes once; a second execute is refused and never debits again.
 */
export function executeQuote(
  ctx: SandboxContext,
  quoteId: string,
  opts: {
    req?: EmuRequest
    agentId?: string
    agentAuto?: boolean
    outcome?: Outcome
    scaAuthorized?: boolean
    site?: DebitSite
  } = {},
): StoredQuote {
  const q = getQuote(ctx, quoteId)
  // A quote released by its SCA authorization passed every check when it was executed.
  const releasing = opts.scaAuthorized === true && q.status === 'PENDING_AUTHORIZATION'
  if (q._.sourceKind === 'REALTIME')
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${q.id} is funded in real time: it executes when the funds arrive (sandbox: POST /sandbox/send), not through execute`,
    )
  if (!releasing && (q.status === 'EXPIRED' || (q.status === 'PENDING' && Date.parse(q.expiresAt) <= ctx.now())))
    throw expired(ctx, q)
  if (q.status === 'PENDING_AUTHORIZATION' && !releasing)
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${q.id} waits for its SCA authorization (POST /quotes/${q.id}/authorize); execute is not repeated`,
      {status: q.status},
    )
  if (!releasing && q.status !== 'PENDING')
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${q.id} was already executed (status ${q.status}); it never executes twice`,
      {status: q.status, transactionId: q.transactionId},
    )
  // Checks (the wallet signature ...) and gates (SCA holds the quote) are wired in emulator.ts.
  if (!releasing) for (const check of ctx.reactions.executeChecks) check({ctx, quote: q, req: opts.req})
  checkCustomerDebit(ctx, opts.site ?? 'quote.execute', {customerId: q._.customerId, accountId: q._.sourceAccountId})
  if (!releasing) {
    for (const gate of ctx.reactions.executeGates) {
      const held = gate({ctx, quote: q, agentId: opts.agentId, agentAuto: opts.agentAuto})
      if (held) return held
    }
  }
  const cents = checkDailyVolume(ctx, q.sendingCurrency.code, q.totalSendingAmount)
  // The destination may have filled up since the quote: still refused before anything moves.
  if (q._.destinationInternal && q._.destinationAccountId)
    checkCreditFits(
      ctx,
      getInternalAccount(ctx, q._.destinationAccountId),
      q.totalReceivingAmount,
      'lockedCurrencyAmount',
    )
  let funding: Funding
  if (q._.sourceKind === 'INTERNAL') {
    hold(ctx, q._.sourceAccountId!, q.totalSendingAmount)
    funding = {
      kind: 'held',
      accountId: q._.sourceAccountId!,
      amount: q.totalSendingAmount,
      currency: q.sendingCurrency.code,
    }
  } else {
    // An ACH pull: the customer's bank sends the funds, which are in flight to the destination.
    arriveInTransit(ctx, q.sendingCurrency.code, q.totalSendingAmount)
    funding = {kind: 'transit', currency: q.sendingCurrency.code, amount: q.totalSendingAmount}
  }
  addDailyVolume(ctx, cents)
  const next = ctx.db.put('quotes', q.id, {...q, status: 'PROCESSING' as const})
  const pendingApproval = Boolean(opts.agentId) && !opts.agentAuto
  startOutgoing(
    ctx,
    outgoing(ctx, next, q.transactionId!, funding, {
      status: pendingApproval ? 'PENDING' : 'PROCESSING',
      agentId: opts.agentId,
      pendingApproval,
      outcome: opts.outcome,
    }),
  )
  return ctx.db.get<StoredQuote>('quotes', q.id)!
}

/** POST /sandbox/send: simulates the payer's funds arriving for a real-time-funded quote. */
export function sandboxSend(
  ctx: SandboxContext,
  input: {quoteId: string; currencyCode: string; currencyAmount?: number},
): StoredTransaction {
  const q = getQuote(ctx, input.quoteId)
  if (q._.sourceKind !== 'REALTIME')
    throw badRequest('INVALID_INPUT', `${q.id} is not funded in real time; execute it instead`, {
      errors: [{field: 'quoteId', message: 'must be a real-time-funded quote'}],
    })
  if (q.status === 'EXPIRED') throw expired(ctx, q)
  if (q.status !== 'PENDING')
    throw conflict('INVALID_STATE_TRANSITION', `${q.id} was already funded (status ${q.status})`)
  if (input.currencyCode !== q.sendingCurrency.code)
    throw invalid([{field: 'currencyCode', message: `must be ${q.sendingCurrency.code}, the quote's funding currency`}])
  if (input.currencyAmount !== undefined && input.currencyAmount !== q.totalSendingAmount) {
    throw badRequest(
      'FUNDING_AMOUNT_MISMATCH',
      `The quote expects exactly ${q.totalSendingAmount}; ${input.currencyAmount} was sent`,
      {expected: q.totalSendingAmount, received: input.currencyAmount},
    )
  }
  checkCustomerDebit(ctx, 'sandbox.realtime-funding', {customerId: q._.customerId})
  const cents = checkDailyVolume(ctx, q.sendingCurrency.code, q.totalSendingAmount)
  if (q._.destinationInternal && q._.destinationAccountId)
    checkCreditFits(ctx, getInternalAccount(ctx, q._.destinationAccountId), q.totalReceivingAmount, 'quoteId')
  arriveInTransit(ctx, q.sendingCurrency.code, q.totalSendingAmount)
  addDailyVolume(ctx, cents)
  const funded = ctx.db.put('quotes', q.id, {
    ...q,
    status: 'PROCESSING' as const,
    transactionId: q.transactionId ?? `Transaction:${q.id.split(':')[1]}`,
  })
  const source = {sourceType: 'REALTIME_FUNDING', currency: q.sendingCurrency.code, customerId: q._.customerId}
  return startOutgoing(
    ctx,
    outgoing(
      ctx,
      funded,
      funded.transactionId!,
      {kind: 'transit', currency: q.sendingCurrency.code, amount: q.totalSendingAmount},
      {status: 'PROCESSING', source},
    ),
  )
}
