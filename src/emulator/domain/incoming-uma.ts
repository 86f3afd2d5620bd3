import {SANDBOX_UMA_DOMAIN, type SandboxUmaReceiveRequest} from '../../lib/schemas/uma.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, conflict, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {internalAccounts} from '../store/accounts.js'
import {activeByUmaAddress} from '../store/customers.js'
import {getCustomer, type StoredCustomer} from './customers.js'
import {checkCreditFits} from './credit-fits.js'
import {credit} from './ledger.js'
import {currencyObject} from './internal-accounts.js'
import {convertUp, rateFor, rateNumber} from './rates.js'
import {failPayment, publicTransaction, type StoredTransaction} from './transactions.js'
import type {UmaSenderBehaviour} from '../store/transactions.js'
export type {UmaSenderBehaviour}

/** What a sandbox counterparty address does (sandbox-behaviour 11). */
export interface SandboxCounterparty {
  /** refund / refund_fail: approved, but crediting the receiver fails and the money goes back to the sender (our extension). */
  behaviour: UmaSenderBehaviour
  currency: string
}

const SANDBOX_ADDRESS = new RegExp(
  `^\\$(success|pending\\.long|fail\\.compliance|refund|refund\\.fail)\\.(usd|eur|mxn)@${SANDBOX_UMA_DOMAIN.replace(/\./g, '\\.')}$`,
  'i',
)

const BEHAVIOURS: Record<string, UmaSenderBehaviour> = {
  success: 'success',
  'pending.long': 'pending',
  'fail.compliance': 'fail',
  refund: 'refund',
  'refund.fail': 'refund_fail',
}

/** `$success.usd@sandbox.uma.money` -> success in USD; other names at that domain are unknown (undefined). */
export function sandboxCounterparty(address: string): SandboxCounterparty | undefined {
  const m = SANDBOX_ADDRESS.exec(address)
  if (!m) return undefined
  return {behaviour: BEHAVIOURS[m[1].toLowerCase()], currency: m[2].toUpperCase()}
}

export const isSandboxDomain = (address: string) => address.toLowerCase().endsWith(`@${SANDBOX_UMA_DOMAIN}`)

/** The platform customer an UMA address or id names (404 when none). */
export function receivingCustomer(ctx: SandboxContext, o: {umaAddress?: string; customerId?: string}): StoredCustomer {
  if (o.customerId) return getCustomer(ctx, o.customerId)
  const c = activeByUmaAddress(ctx.db, o.umaAddress!)
  if (!c) throw notFound('UMA_NOT_FOUND', `UMA address ${o.umaAddress}`)
  return c
}

/**
 * POST /sandbox/uma/receive: a sandbox sender pays a platform customer. The payment waits PENDING
 * for the platform's decision (INCOMING_PAYMENT.PENDING); POST /transactions/{id}/approve or
 * /reject decides it. If the platform does neither, a `$success` sender's payment is approved after
 * `incomingApprovalDelayMs` (the sandbox plays the platform's 200 reply) and a `$fail.compliance`
 * one fails COMPLIANCE_REJECTED; a `$pending.long` one waits for the platform. Money moves only on
 * completion, through the ledger (credit), so the money invariant holds at every step.
 */
export function receiveUmaPayment(ctx: SandboxContext, input: SandboxUmaReceiveRequest): StoredTransaction {
  if (!isSandboxDomain(input.senderUmaAddress))
    throw invalid([
      {
        field: 'senderUmaAddress',
        message: `must be a sandbox sender at ${SANDBOX_UMA_DOMAIN} ($success.usd@${SANDBOX_UMA_DOMAIN} ...)`,
      },
    ])
  const sender = sandboxCounterparty(input.senderUmaAddress)
  if (!sender) throw notFound('UMA_NOT_FOUND', `Sandbox sender ${input.senderUmaAddress}`)
  const customer = receivingCustomer(ctx, {umaAddress: input.receiverUmaAddress, customerId: input.customerId})
  const code = input.receivingCurrencyCode
  const account = internalAccounts(ctx.db, {customerId: customer.id, currency: code})[0]
  if (!account)
    throw badRequest('INVALID_CURRENCY', `${customer.id} holds no ${code} account to receive into`, {
      customerId: customer.id,
      currency: code,
    })
  // Credited when the payment completes (a job): refused now if it would not fit then (issue 29 F18).
  checkCreditFits(ctx, account, input.receivingCurrencyAmount, 'receivingCurrencyAmount')
  const rate = rateFor(ctx, sender.currency, code)
  const now = ctx.iso()
  const t: StoredTransaction = {
    id: newId('Transaction'),
    status: 'PENDING',
    type: 'INCOMING',
    direction: 'CREDIT',
    customerId: customer.id,
    platformCustomerId: customer.platformCustomerId,
    source: {sourceType: 'UMA_ADDRESS', umaAddress: input.senderUmaAddress, currency: sender.currency},
    destination: {destinationType: 'ACCOUNT', accountId: account.id, currency: code},
    sentAmount: {amount: convertUp(rate, input.receivingCurrencyAmount), currency: currencyObject(sender.currency)},
    receivedAmount: {amount: input.receivingCurrencyAmount, currency: currencyObject(code)},
    exchangeRate: rateNumber(rate),
    description: `UMA payment from ${input.senderUmaAddress}`,
    createdAt: now,
    updatedAt: now,
    _: {umaSender: sender.behaviour},
  }
  ctx.db.put('transactions', t.id, t)
  ctx.webhooks.emit('INCOMING_PAYMENT.PENDING', {...publicTransaction(t), requestedReceiverCustomerInfoFields: []})
  if (sender.behaviour !== 'pending')
    ctx.scheduler.after(ctx.settings().incomingApprovalDelayMs, 'incoming.decide', {id: t.id})
  return t
}

function saveIncoming(
  ctx: SandboxContext,
  t: StoredTransaction,
  patch: Partial<StoredTransaction>,
  event: string,
): StoredTransaction {
  const next = ctx.db.put('transactions', t.id, {...t, ...patch, updatedAt: ctx.iso()})
  ctx.webhooks.emit(event, publicTransaction(next))
  return next
}

/**
 * The platform (or, by default, the sandbox) approved. The money arrives in the receiver's account,
 * except from a `$refund` / `$refund.fail` sender: there crediting fails (OFFRAMP_FAILED) and the
 * money goes back to the sender (refund PENDING, then COMPLETED or FAILED).
 */
export function acceptIncoming(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  const sender = t._?.umaSender
  return sender === 'refund' || sender === 'refund_fail' ? failCrediting(ctx, t) : completeIncoming(ctx, t)
}

/** The money arrives in the receiver's account. */
export function completeIncoming(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  credit(ctx, String(t.destination.accountId), t.receivedAmount!.amount)
  return saveIncoming(ctx, t, {status: 'COMPLETED', settledAt: ctx.iso()}, 'INCOMING_PAYMENT.COMPLETED')
}

const awaitingDecision = (t: StoredTransaction) => t.type === 'INCOMING' && t.status === 'PENDING'

/** POST /transactions/{id}/reject: a pending incoming payment is refused (nothing moves), or an agent's payment is dropped (its hold released). */
export function rejectTransaction(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  if (awaitingDecision(t)) return saveIncoming(ctx, t, {status: 'REJECTED'}, 'INCOMING_PAYMENT.FAILED')
  if (t.type === 'OUTGOING' && t.status === 'PENDING' && t.agentId) return failPayment(ctx, t, undefined)
  throw notPending(t)
}

export function notPending(t: StoredTransaction): HttpError {
  return conflict(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `${t.id} is ${t.type} ${t.status}; only a PENDING incoming payment (or an agent's PENDING payment) waits for the platform's decision`,
    {status: t.status, type: t.type},
  )
}

export function isAwaitingDecision(t: StoredTransaction): boolean {
  return awaitingDecision(t)
}

/** No decision from the platform in time: a `$fail.compliance` payment fails, any other is accepted (the sandbox's stand-in for a 200 reply). */
export function decideByDefault(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  if (t._?.umaSender === 'fail') return failIncoming(ctx, t, 'COMPLIANCE_REJECTED')
  return acceptIncoming(ctx, t)
}

/** The payment fails for `reason` before any money moved (compliance, or a reason a trigger names). */
export function failIncoming(ctx: SandboxContext, t: StoredTransaction, reason: string): StoredTransaction {
  return saveIncoming(ctx, t, {status: 'FAILED', failureReason: reason}, 'INCOMING_PAYMENT.FAILED')
}

/**
 * Crediting the receiver failed after approval: the payment FAILS (OFFRAMP_FAILED) and its refund to
 * the sender starts (INCOMING_PAYMENT.FAILED, then .REFUND_PENDING). The refund settles
 * `paymentCompletionDelayMs` later, like a payment. Nothing was credited, and the refund leaves from
 * the sender's side, outside the platform's ledger: no balance here moves at any step.
 */
export function failCrediting(ctx: SandboxContext, t: StoredTransaction): StoredTransaction {
  const refund = {
    reference: `RF-${t.id.slice(-8)}`,
    initiatedAt: ctx.iso(),
    status: 'PENDING',
    reason: 'TRANSACTION_FAILED',
  }
  const failed = saveIncoming(
    ctx,
    t,
    {status: 'FAILED', failureReason: 'OFFRAMP_FAILED', refund},
    'INCOMING_PAYMENT.FAILED',
  )
  ctx.webhooks.emit('INCOMING_PAYMENT.REFUND_PENDING', publicTransaction(failed))
  ctx.scheduler.after(ctx.settings().paymentCompletionDelayMs, 'incoming.refund', {id: t.id})
  return failed
}

/**
 * The refund of a failed incoming payment settles: `$refund` senders get their money back, `$refund.fail`
 * ones do not, unless `ok` (a trigger) says which.
 */
export function settleIncomingRefund(
  ctx: SandboxContext,
  t: StoredTransaction,
  ok = t._?.umaSender !== 'refund_fail',
): StoredTransaction {
  const refund = {...t.refund!, status: ok ? 'COMPLETED' : 'FAILED', ...(ok ? {settledAt: ctx.iso()} : {})}
  return saveIncoming(ctx, t, {refund}, ok ? 'INCOMING_PAYMENT.REFUND_COMPLETED' : 'INCOMING_PAYMENT.REFUND_FAILED')
}

export function registerIncomingJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('incoming.decide', (p) => {
    const t = ctx.db.get<StoredTransaction>('transactions', String(p.id))
    if (t && awaitingDecision(t)) decideByDefault(ctx, t) // else the platform decided first
  })
  ctx.scheduler.on('incoming.refund', (p) => {
    const t = ctx.db.get<StoredTransaction>('transactions', String(p.id))
    if (t?.type === 'INCOMING' && t.refund?.status === 'PENDING') settleIncomingRefund(ctx, t)
  })
}
