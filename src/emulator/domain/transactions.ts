import {randomBytes} from 'node:crypto'
import {base58} from '@scure/base'
import {WALLET_KINDS} from '../../lib/account-checks.js'
import type {SandboxContext} from '../context.js'
import {conflict, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {credit, leaveInTransit, releaseHeld, returnToAccount, settleHeld} from './ledger.js'
import {currencyObject} from './internal-accounts.js'
import type {Funding, StoredTransaction} from '../store/transactions.js'
export type {Funding, StoredTransaction}

export function publicTransaction(t: StoredTransaction): Record<string, unknown> {
  const {_: _internal, ...rest} = t
  // data dirs written before fees became int64 held {amount, currency}
  for (const k of ['fees', 'platformFees'] as const) {
    const v = rest[k] as unknown
    if (v && typeof v === 'object') rest[k] = (v as {amount: number}).amount
  }
  return rest
}

export function getTransaction(ctx: SandboxContext, id: string): StoredTransaction {
  const t = ctx.db.get<StoredTransaction>('transactions', id)
  if (!t) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`)
  return t
}

function save(ctx: SandboxContext, t: StoredTransaction, patch: Partial<StoredTransaction>): StoredTransaction {
  return ctx.db.put('transactions', t.id, {...t, ...patch, updatedAt: ctx.iso()})
}

/** The quote follows its transaction to a terminal state (plain store access: no import cycle with quotes.ts). */
function syncQuote(ctx: SandboxContext, t: StoredTransaction): void {
  if (!t.quoteId || t.type !== 'OUTGOING') return
  const q = ctx.db.get<{id: string; status: string}>('quotes', t.quoteId)
  const status = t.status === 'COMPLETED' ? 'COMPLETED' : t.status === 'FAILED' ? 'FAILED' : undefined
  if (q && status && q.status !== status) ctx.db.put('quotes', q.id, {...q, status})
}

function changed(ctx: SandboxContext, t: StoredTransaction, event?: string): StoredTransaction {
  syncQuote(ctx, t)
  // The agent action behind an agent's transaction follows its status (reactions: emulator.ts).
  if (t.agentId) for (const react of ctx.reactions.agentTransactionChanged) react(ctx.system(), t)
  if (event) ctx.webhooks.emit(event, publicTransaction(t))
  return t
}

/** Money in from outside (sandbox fund): a COMPLETED incoming transaction and its webhook. */
export function recordIncoming(
  ctx: SandboxContext,
  accountId: string,
  amount: number,
  o: {customerId?: string; platformCustomerId?: string; description: string; source?: Record<string, unknown>},
): StoredTransaction {
  const acc = credit(ctx, accountId, amount)
  const now = ctx.iso()
  const t: StoredTransaction = {
    id: newId('Transaction'),
    status: 'COMPLETED',
    type: 'INCOMING',
    direction: 'CREDIT',
    ...(o.customerId ? {customerId: o.customerId, platformCustomerId: o.platformCustomerId} : {}),
    ...(o.source ? {source: o.source} : {}),
    destination: {destinationType: 'ACCOUNT', accountId, currency: acc.balance.currency.code},
    receivedAmount: {amount, currency: currencyObject(acc.balance.currency.code)},
    description: o.description,
    settledAt: now,
    createdAt: now,
    updatedAt: now,
  }
  ctx.db.put('transactions', t.id, t)
  return changed(ctx, t, 'INCOMING_PAYMENT.COMPLETED')
}

/** Stores a new outgoing transaction (funds already held or in transit) and starts its settlement. */
export function startOutgoing(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  ctx.db.put('transactions', t.id, t)
  if (t.status === 'PROCESSING') scheduleSettlement(ctx, t)
  return changed(ctx, t)
}

export function scheduleSettlement(ctx: SandboxContext, t: StoredTransaction): void {
  const s = ctx.settings()
  const o = t._?.outcome ?? {kind: 'complete', delay: 'normal'}
  const delay =
    o.kind === 'complete' && o.delay === 'slow'
      ? s.slowPaymentDelayMs
      : o.kind === 'fail' && o.delay === 'timeout'
        ? s.paymentTimeoutFailMs
        : s.paymentCompletionDelayMs
  ctx.scheduler.after(delay, 'payment.settle', {id: t.id})
}

function hash(network: string): string {
  return ['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA'].includes(network)
    ? '0x' + randomBytes(32).toString('hex')
    : base58.encode(randomBytes(64))
}

function releaseFunds(ctx: SandboxContext, f: Funding | undefined, lost: boolean): void {
  if (!f) return
  if (f.kind === 'transit') leaveInTransit(ctx, f.currency, f.amount)
  else if (lost) settleHeld(ctx, f.accountId, f.amount)
  else releaseHeld(ctx, f.accountId, f.amount)
}

export function completePayment(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  const f = t._?.funding
  if (f?.kind === 'transit') leaveInTransit(ctx, f.currency, f.amount)
  else if (f) settleHeld(ctx, f.accountId, f.amount)
  const now = ctx.iso()
  const patch: Partial<StoredTransaction> = {status: 'COMPLETED', settledAt: now, pendingReason: undefined}
  if (t._?.sourceNetwork)
    patch.source = {
      ...t.source,
      onChainTransaction: {transactionHash: hash(t._.sourceNetwork), network: t._.sourceNetwork},
    }
  if (t._?.destinationWallet) {
    const network = WALLET_KINDS[t._.destinationWallet].network
    patch.destination = {...t.destination, onChainTransaction: {transactionHash: hash(network), network}}
  }
  const done = changed(ctx, save(ctx, t, patch), 'OUTGOING_PAYMENT.COMPLETED')
  // A conversion into an internal account is money in for that account: credit it and say so.
  if (t._?.destinationInternal && t.receivedAmount) {
    recordIncoming(ctx, t._.destinationInternal, t.receivedAmount.amount, {
      customerId: t.customerId,
      platformCustomerId: t.platformCustomerId,
      description: `From ${t.id}`,
      source: incomingSourceOf(t),
    })
  }
  const r = t._?.umaReceiver
  if (r && t.receivedAmount) {
    const currency = t.sentAmount?.currency.code as string | undefined
    recordIncoming(ctx, r.accountId, t.receivedAmount.amount, {
      customerId: r.customerId,
      platformCustomerId: r.platformCustomerId,
      description: `UMA payment from ${r.senderUma}`,
      source: {sourceType: 'UMA_ADDRESS', umaAddress: r.senderUma, ...(currency ? {currency} : {})},
    })
  }
  return done
}

/** The source of the money in: the paying account when there is one (the contract's AccountTransactionSource needs accountId). */
function incomingSourceOf(t: StoredTransaction): Record<string, unknown> {
  const currency = t.sentAmount?.currency.code as string | undefined
  const accountId = t.source?.accountId
  return typeof accountId === 'string'
    ? {sourceType: 'ACCOUNT', accountId, ...(currency ? {currency} : {})}
    : {sourceType: 'REALTIME_FUNDING', ...(currency ? {currency} : {})}
}

export function failPayment(
  ctx: SandboxContext,
  t: StoredTransaction,
  reason: string | undefined,
  refund?: {status: 'COMPLETED' | 'FAILED'; reason: string},
): StoredTransaction {
  releaseFunds(ctx, t._?.funding, refund?.status === 'FAILED')
  const now = ctx.iso()
  const r = refund
    ? {
        reference: `RF-${t.id.slice(-8)}`,
        initiatedAt: now,
        status: refund.status,
        reason: refund.reason,
        ...(refund.status === 'COMPLETED' ? {settledAt: now} : {}),
      }
    : undefined
  const next = changed(
    ctx,
    save(ctx, t, {
      status: 'FAILED',
      ...(reason ? {failureReason: reason} : {}),
      pendingReason: undefined,
      ...(r ? {refund: r} : {}),
    }),
    'OUTGOING_PAYMENT.FAILED',
  )
  if (r)
    ctx.webhooks.emit(
      r.status === 'COMPLETED' ? 'OUTGOING_PAYMENT.REFUND_COMPLETED' : 'OUTGOING_PAYMENT.REFUND_FAILED',
      publicTransaction(next),
    )
  return next
}

/** Suffix 005: the receiving bank sends a settled payment back; the source is credited again. */
export function returnPayment(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  const f = t._?.funding
  if (f?.kind === 'held') returnToAccount(ctx, f.accountId, f.amount)
  // A real-time-funded payment goes back to the payer outside the platform: nothing moves here.
  const now = ctx.iso()
  const next = changed(
    ctx,
    save(ctx, t, {
      status: 'FAILED',
      failureReason: 'PAYOUT_RETURNED',
      refund: {
        reference: `RT-${t.id.slice(-8)}`,
        initiatedAt: now,
        settledAt: now,
        status: 'COMPLETED',
        reason: 'TRANSACTION_FAILED',
      },
    }),
    'OUTGOING_PAYMENT.FAILED',
  )
  ctx.webhooks.emit('OUTGOING_PAYMENT.REFUND_COMPLETED', publicTransaction(next))
  return next
}

/** Agent-initiated transactions wait in PENDING until the platform approves them. */
export function approveTransaction(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  if (t.status !== 'PENDING' || !t.agentId)
    throw conflict(
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      `${t.id} is ${t.status}${t.agentId ? '' : ' and was not started by an agent'}; only agent-initiated transactions waiting for approval can be approved`,
    )
  const next = save(ctx, t, {status: 'PROCESSING', pendingReason: undefined})
  scheduleSettlement(ctx, next)
  return changed(ctx, next, 'OUTGOING_PAYMENT.PROCESSING')
}

/** Cancels a payment that has not settled (PENDING, or PROCESSING before settlement); the funds come back. */
export function cancelTransaction(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  if (t.type !== 'OUTGOING' || !['PENDING', 'PROCESSING'].includes(t.status)) {
    throw conflict(
      'TRANSACTION_NOT_CANCELLABLE',
      `${t.id} is ${t.status}; only outgoing payments that have not settled can be cancelled`,
    )
  }
  return failPayment(ctx, t, undefined, {status: 'COMPLETED', reason: 'USER_CANCELLATION'})
}

export function registerTransactionJobs(ctx: SandboxContext): void {
  ctx.scheduler.on(
    'payment.settle',
    (p) => {
      const t = ctx.db.get<StoredTransaction>('transactions', String(p.id))
      if (!t || t.status !== 'PROCESSING') return // cancelled or settled meanwhile
      const o = t._?.outcome ?? {kind: 'complete', delay: 'normal'}
      if (o.kind === 'fail')
        failPayment(
          ctx,
          t,
          o.reason,
          o.refund ? {status: o.refund, reason: o.refundReason ?? 'TRANSACTION_FAILED'} : undefined,
        )
      else {
        completePayment(ctx, t)
        if (o.kind === 'return') ctx.scheduler.after(ctx.settings().paymentReturnDelayMs, 'payment.return', {id: t.id})
      }
    },
    {
      // A settlement that can never run must not leave the money held: the payment fails and its hold goes back.
      giveUp: (p) => {
        const t = ctx.db.get<StoredTransaction>('transactions', String(p.id))
        if (t?.status === 'PROCESSING')
          failPayment(ctx, t, 'QUOTE_EXECUTION_FAILED', {status: 'COMPLETED', reason: 'TRANSACTION_FAILED'})
      },
    },
  )
  ctx.scheduler.on('payment.return', (p) => {
    const t = ctx.db.get<StoredTransaction>('transactions', String(p.id))
    if (t?.status === 'COMPLETED') returnPayment(ctx, t)
  })
}

/**
 * POST /transactions/{id}/confirm: records when the platform delivered the receipt (default now;
 * a repeat call replaces it). The contract names no state rule and no 409 for it, so any
 * transaction may carry one; the time must lie between the transaction's creation and now.
 */
export function confirmReceipt(ctx: SandboxContext, t: StoredTransaction, at: string | undefined): StoredTransaction {
  const when = at ? new Date(at).toISOString() : ctx.iso()
  if (when < t.createdAt)
    throw invalid([{field: 'receiptDeliveryConfirmedAt', message: `is before ${t.id} was created (${t.createdAt})`}])
  if (Date.parse(when) > ctx.now() + 60_000)
    throw invalid([{field: 'receiptDeliveryConfirmedAt', message: 'is in the future'}])
  return save(ctx, t, {receiptDeliveryConfirmedAt: when})
}
