import {randomBytes} from 'node:crypto'
import type {CardTransactionStatus} from '../../lib/schemas/cards.js'
import type {SandboxContext} from '../context.js'
import {invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {docsWhere} from '../store/keyset.js'
import {activeKeyOfFundingSource} from '../store/delegated-keys.js'
import {fundingSourceOf} from './delegated-keys.js'
import type {StoredCard} from '../store/cards.js'
import {getCustomer} from './customers.js'
import {currencyObject, type InternalAccount} from './internal-accounts.js'
import {credit, getInternalAccount, hold, releaseHeld, returnToAccount, settleHeld} from './ledger.js'
import type {StoredCardTransaction} from '../store/cards.js'
export type {StoredCardTransaction}

/**
 * The card transaction as the platform sees it. An EXCEPTION is listed as needing attention (with what
 * it still holds) until it is resolved: the Service's operations settle or return it; in the sandbox,
 * the exception_resolution simulator does.
 */
export function publicCardTransaction(
  t: StoredCardTransaction,
): Omit<StoredCardTransaction, '_'> & {needsAttention?: {reason: string; heldAmount: number}} {
  const {_: internal, ...rest} = t
  if (t.status !== 'EXCEPTION') return rest
  return {
    ...rest,
    needsAttention: {
      reason: 'EXCEPTION unresolved: settle or return it (sandbox: simulate/exception_resolution)',
      heldAmount: internal.held,
    },
  }
}

export function getCardTransaction(ctx: SandboxContext, id: string): StoredCardTransaction {
  const t = ctx.db.get<StoredCardTransaction>('cardTransactions', id)
  if (!t) throw notFound('TRANSACTION_NOT_FOUND', `Card transaction ${id}`)
  return t
}

export const issuerToken = () => `sbx_txn_${randomBytes(12).toString('hex')}`

/** Saves and fires `CARD_TRANSACTION.<status>` with the whole transaction (spec 6). */
export function post(
  ctx: SandboxContext,
  t: StoredCardTransaction,
  patch: Partial<StoredCardTransaction> = {},
  event?: string,
): StoredCardTransaction {
  const saved = ctx.db.put('cardTransactions', t.id, {...t, ...patch, lastEventAt: ctx.iso(), updatedAt: ctx.iso()})
  ctx.webhooks.emit(`CARD_TRANSACTION.${event ?? saved.status}`, publicCardTransaction(saved))
  return saved
}

/** A refused authorization: no transaction, only `CARD_TRANSACTION.DECLINED` naming the reason. */
export function decline(
  ctx: SandboxContext,
  card: StoredCard,
  token: string,
  reason: string,
  amount: number,
  merchant: StoredCardTransaction['merchant'],
  direction: 'DEBIT' | 'CREDIT',
): void {
  ctx.webhooks.emit('CARD_TRANSACTION.DECLINED', {
    cardId: card.id,
    customerId: card.cardholderId,
    issuerTransactionToken: token,
    direction,
    merchant,
    amount: {amount, currency: currencyObject(card.currency)},
    declineReason: reason,
    declinedAt: ctx.iso(),
  })
}

/**
 * The first funding source, in priority order, whose spendable balance covers `amount`. An embedded
 * wallet funds card transactions only once the cardholder gave it an ACTIVE delegated key.
 */
export function fundingAccountFor(ctx: SandboxContext, card: StoredCard, amount: number): InternalAccount | undefined {
  for (const id of card.fundingSources) {
    const a = ctx.db.get<InternalAccount>('internalAccounts', id)
    if (a?.type === 'EMBEDDED_WALLET' && !activeKeyOfFundingSource(ctx.db, fundingSourceOf(ctx, card.id, a.id)))
      continue
    if (a && a.status === 'ACTIVE' && a.balance.amount >= amount) return a
  }
  return undefined
}

/** Creates the transaction row of an approved authorization (money already moved by the caller). */
export function newCardTransaction(
  ctx: SandboxContext,
  card: StoredCard,
  o: {
    token: string
    direction: 'DEBIT' | 'CREDIT'
    merchant: StoredCardTransaction['merchant']
    amount: number
    accountId: string
    held: number
    pulled: number
    settled: number
  },
): StoredCardTransaction {
  const customer = getCustomer(ctx, card.cardholderId, {includeDeleted: true})
  const cur = currencyObject(card.currency)
  const now = ctx.iso()
  return {
    type: 'CARD',
    id: newId('CardTransaction'),
    cardId: card.id,
    customerId: customer.id,
    platformCustomerId: customer.platformCustomerId ?? '',
    issuerTransactionToken: o.token,
    status: o.settled > 0 ? 'SETTLED' : 'AUTHORIZED',
    direction: o.direction,
    merchant: o.merchant,
    authorizedAmount: {amount: o.amount, currency: cur},
    settledAmount: {amount: o.settled, currency: cur},
    refundedAmount: {amount: 0, currency: cur},
    accountId: o.accountId,
    pullSummary: {count: o.pulled > 0 ? 1 : 0, totalAmount: o.pulled, pendingCount: 0},
    refundSummary: {count: 0, totalAmount: 0},
    settlementSummary: {count: o.settled > 0 ? 1 : 0, totalAmount: o.settled},
    authorizedAt: now,
    lastEventAt: now,
    createdAt: now,
    updatedAt: now,
    _: {held: o.held, returns: []},
  }
}

/** Pulls `amount` from the account at once (hold + settle); false when the balance is short. */
export function pull(ctx: SandboxContext, accountId: string, amount: number): boolean {
  if (amount <= 0) return true
  if (getInternalAccount(ctx, accountId).balance.amount < amount) return false
  hold(ctx, accountId, amount)
  settleHeld(ctx, accountId, amount)
  return true
}

/** Still open: nothing settled and the hold intact (an authorization can expire only then). */
export const fullyOpen = (t: StoredCardTransaction) => t.status === 'AUTHORIZED' && t.settledAmount.amount === 0

/** Authorization expiry: a fully open authorization becomes VOIDED and its hold is released. */
export function voidAuthorization(ctx: SandboxContext, t: StoredCardTransaction): StoredCardTransaction | undefined {
  if (!fullyOpen(t)) return undefined
  if (t._.held > 0) releaseHeld(ctx, t.accountId, t._.held)
  return post(ctx, t, {status: 'VOIDED', _: {...t._, held: 0}})
}

/** A clearing of `amount` (> 0) against an open authorization. */
export function clear(ctx: SandboxContext, t: StoredCardTransaction, amount: number): StoredCardTransaction {
  const settled = t.settledAmount.amount + amount
  let held = t._.held
  let pulls = t.pullSummary
  let exception = false
  if (t.direction === 'CREDIT') credit(ctx, t.accountId, amount)
  else {
    const fromHold = Math.min(amount, held)
    if (fromHold > 0) settleHeld(ctx, t.accountId, fromHold)
    held -= fromHold
    const extra = amount - fromHold
    if (extra > 0) {
      if (pull(ctx, t.accountId, extra))
        pulls = {...pulls, count: pulls.count + 1, totalAmount: pulls.totalAmount + extra}
      else exception = true // settled to the network, but the post-hoc pull failed
    }
  }
  const final = settled >= t.authorizedAmount.amount
  if (final && held > 0) (releaseHeld(ctx, t.accountId, held), (held = 0))
  const status: CardTransactionStatus = exception ? 'EXCEPTION' : final ? 'SETTLED' : 'PARTIALLY_SETTLED'
  return post(ctx, t, {
    status,
    settledAmount: {...t.settledAmount, amount: settled},
    settlementSummary: {count: t.settlementSummary.count + 1, totalAmount: t.settlementSummary.totalAmount + amount},
    pullSummary: pulls,
    _: {...t._, held},
  })
}

/** A merchant return: credited back to the funding account; status stays, SETTLED re-fires with refundedAmount. */
export function postReturn(ctx: SandboxContext, t: StoredCardTransaction, amount: number): StoredCardTransaction {
  returnToAccount(ctx, t.accountId, amount)
  return post(ctx, t, {
    refundedAmount: {...t.refundedAmount, amount: t.refundedAmount.amount + amount},
    refundSummary: {count: t.refundSummary.count + 1, totalAmount: t.refundSummary.totalAmount + amount},
    _: {...t._, returns: [...t._.returns, amount]},
  })
}

/** Undoes the latest return: pulled again from the funding account (EXCEPTION when the balance is short). */
export function reverseReturn(ctx: SandboxContext, t: StoredCardTransaction): StoredCardTransaction {
  const amount = t._.returns.at(-1)!
  const ok = pull(ctx, t.accountId, amount)
  return post(ctx, t, {
    ...(ok
      ? {
          pullSummary: {
            ...t.pullSummary,
            count: t.pullSummary.count + 1,
            totalAmount: t.pullSummary.totalAmount + amount,
          },
        }
      : {status: 'EXCEPTION' as const}),
    refundedAmount: {...t.refundedAmount, amount: t.refundedAmount.amount - amount},
    refundSummary: {...t.refundSummary, totalAmount: t.refundSummary.totalAmount - amount},
    _: {...t._, returns: t._.returns.slice(0, -1)},
  })
}

/** A new total authorized amount for an open authorization (authorization_advice). */
export function resize(ctx: SandboxContext, t: StoredCardTransaction, total: number): StoredCardTransaction {
  if (total < t.settledAmount.amount)
    throw invalid([{field: 'amount', message: `must be at least the ${t.settledAmount.amount} already settled`}])
  let held = t._.held
  const delta = total - t.authorizedAmount.amount
  if (t.direction === 'DEBIT' && delta > 0) {
    if (getInternalAccount(ctx, t.accountId).balance.amount < delta) return post(ctx, t, {status: 'EXCEPTION'})
    hold(ctx, t.accountId, delta)
    held += delta
  } else if (t.direction === 'DEBIT' && delta < 0) {
    const release = Math.min(-delta, held)
    if (release > 0) releaseHeld(ctx, t.accountId, release)
    held -= release
  }
  const status: CardTransactionStatus =
    t.settledAmount.amount > 0 && total === t.settledAmount.amount ? 'SETTLED' : t.status
  return post(ctx, t, {authorizedAmount: {...t.authorizedAmount, amount: total}, status, _: {...t._, held}})
}

/** Closing a card reconciles its open authorizations: fully open ones are voided, partly settled ones close as SETTLED. */
export function closeOpenTransactions(ctx: SandboxContext, card: StoredCard): void {
  for (const t of docsWhere<StoredCardTransaction>(ctx.db, 'cardTransactions', 'card_id', card.id)) {
    if (fullyOpen(t)) voidAuthorization(ctx, t)
    else if (t.status === 'PARTIALLY_SETTLED') {
      if (t._.held > 0) releaseHeld(ctx, t.accountId, t._.held)
      post(ctx, t, {status: 'SETTLED', _: {...t._, held: 0}})
    }
  }
}

/**
 * Resolves an EXCEPTION the way the Service's operations would (issue 29 F17): SETTLE pays what it
 * still holds to the network (SETTLED); RETURN gives the hold back to the funding account (VOIDED, or
 * SETTLED when part had already settled). Either way the hold ends.
 */
export function resolveException(
  ctx: SandboxContext,
  t: StoredCardTransaction,
  resolution: 'SETTLE' | 'RETURN',
): StoredCardTransaction {
  if (t.status !== 'EXCEPTION')
    throw invalid([{field: 'cardTransactionId', message: `${t.id} is ${t.status}; only an EXCEPTION is resolved`}])
  const held = t._.held
  if (resolution === 'RETURN') {
    if (held > 0) releaseHeld(ctx, t.accountId, held)
    return post(ctx, t, {status: t.settledAmount.amount > 0 ? 'SETTLED' : 'VOIDED', _: {...t._, held: 0}})
  }
  if (held > 0) settleHeld(ctx, t.accountId, held)
  return post(ctx, t, {
    status: 'SETTLED',
    settledAmount: {...t.settledAmount, amount: t.settledAmount.amount + held},
    settlementSummary:
      held > 0
        ? {count: t.settlementSummary.count + 1, totalAmount: t.settlementSummary.totalAmount + held}
        : t.settlementSummary,
    _: {...t._, held: 0},
  })
}
