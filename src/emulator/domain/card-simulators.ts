import {cardSimulationBody, type CardSimulator} from '../../lib/schemas/cards.js'
import type {SandboxContext} from '../context.js'
import type {CardAuthorization} from '../jobs.js'
import {HttpError, invalid, notFound, validate} from '../http-error.js'
import {checkCustomerDebit} from './customer-debit.js'
import {getCard, type StoredCard} from './cards.js'
import {
  clear,
  decline,
  fullyOpen,
  fundingAccountFor,
  getCardTransaction,
  issuerToken,
  newCardTransaction,
  post,
  postReturn,
  pull,
  resize,
  resolveException,
  reverseReturn,
  voidAuthorization,
  type StoredCardTransaction,
} from './card-transactions.js'
import {checkCreditFits} from './credit-fits.js'
import {credit, getInternalAccount, hold} from './ledger.js'

type Merchant = StoredCardTransaction['merchant']
type AuthInput = CardAuthorization

const DEBITS = new Set<CardSimulator>(['authorization', 'financial_authorization', 'balance_inquiry'])
const CREDITS = new Set<CardSimulator>([
  'credit_authorization',
  'credit_authorization_advice',
  'financial_credit_authorization',
])

/**
 * POST /sandbox/cards/{id}/simulate/{kind}: checks the request (400/404 at once), then applies the
 * network event; the outcome reaches the platform only as a CARD_TRANSACTION.* webhook
 * (sandbox-behaviour 16d). The answer is the issuer token alone.
 */
export function simulate(
  ctx: SandboxContext,
  cardId: string,
  kind: CardSimulator,
  body: unknown,
): {issuerTransactionToken: string} {
  const card = getCard(ctx, cardId)
  const input = validate(cardSimulationBody(kind), body ?? {}) as Record<string, unknown>
  const token = issuerToken()
  if (DEBITS.has(kind) || CREDITS.has(kind)) {
    const auth: AuthInput =
      kind === 'balance_inquiry'
        ? {amount: 0, currency: {code: card.currency}, merchant: input.merchant as Merchant}
        : (input as unknown as AuthInput)
    if (auth.currency.code !== card.currency)
      throw invalid([{field: 'currency.code', message: `must be the card's currency ${card.currency}`}])
    // A refund credits the first funding source, now or at its clearing: it must fit (issue 29 F18).
    if (CREDITS.has(kind)) checkCreditFits(ctx, getInternalAccount(ctx, card.fundingSources[0]), auth.amount, 'amount')
    // Descriptor suffix 005: the funding pull is delayed (~30 s), then the authorization goes through.
    if (auth.merchant.descriptor.slice(-3) === '005' && kind !== 'balance_inquiry')
      ctx.scheduler.after(ctx.settings().cardSlowDelayMs, 'card.authorize', {cardId, kind, auth, token})
    else authorize(ctx, card, kind, auth, token)
    return {issuerTransactionToken: token}
  }
  const t = getCardTransaction(ctx, String(input.cardTransactionId))
  if (t.cardId !== card.id) throw notFound('TRANSACTION_NOT_FOUND', `Card transaction ${t.id} on ${card.id}`)
  const amount = input.amount as number | undefined
  const state = (message: string) =>
    invalid([{field: 'cardTransactionId', message: `${t.id} is ${t.status}${message}`}])
  const open = t.status === 'AUTHORIZED' || t.status === 'PARTIALLY_SETTLED'
  switch (kind) {
    case 'clearing':
      if (!open) throw state('; a clearing needs AUTHORIZED or PARTIALLY_SETTLED')
      if (amount === 0) return expireLater(ctx, t, token, state)
      // A credit's open part is already counted as on its way to the account; only a clearing past it adds.
      if (t.direction === 'CREDIT') {
        const open = t.authorizedAmount.amount - t.settledAmount.amount
        checkCreditFits(ctx, getInternalAccount(ctx, t.accountId), Math.max(0, amount! - open), 'amount')
      }
      clear(ctx, t, amount!)
      break
    case 'authorization_expiry':
      return expireLater(ctx, t, token, state)
    case 'authorization_advice':
      if (!open) throw state('; an advice needs AUTHORIZED or PARTIALLY_SETTLED')
      if (t.direction === 'CREDIT' && amount! > t.authorizedAmount.amount)
        checkCreditFits(ctx, getInternalAccount(ctx, t.accountId), amount! - t.authorizedAmount.amount, 'amount')
      resize(ctx, t, amount!)
      break
    case 'return': {
      const net = t.settledAmount.amount - t.refundedAmount.amount
      if (t.direction !== 'DEBIT' || t.settledAmount.amount === 0)
        throw state(' with nothing settled; a return needs at least one settled clearing of a purchase')
      if (amount! > net) throw invalid([{field: 'amount', message: `must be at most the net settled amount ${net}`}])
      checkCreditFits(ctx, getInternalAccount(ctx, t.accountId), amount!, 'amount')
      postReturn(ctx, t, amount!)
      break
    }
    case 'exception_resolution':
      resolveException(ctx, t, input.resolution as 'SETTLE' | 'RETURN')
      break
    case 'return_reversal':
      if (t.refundedAmount.amount === 0)
        throw invalid([{field: 'cardTransactionId', message: `${t.id} has no posted return (refundedAmount is 0)`}])
      reverseReturn(ctx, t)
      break
  }
  return {issuerTransactionToken: token}
}

/** Expiry is processed in the background (spec 3): only a fully open authorization can expire. */
function expireLater(ctx: SandboxContext, t: StoredCardTransaction, token: string, state: (m: string) => Error) {
  if (!fullyOpen(t)) throw state(' with part settled; only a fully open authorization can expire')
  ctx.scheduler.after(ctx.settings().cardProcessingDelayMs, 'card.expire', {cardTransactionId: t.id})
  return {issuerTransactionToken: token}
}

/** Why an authorization is refused, if it is (sandbox-behaviour 16c, card state, spending limit). */
function declineReason(card: StoredCard, kind: CardSimulator, auth: AuthInput): string | undefined {
  const suffix = auth.merchant.descriptor.slice(-3)
  if (card.state === 'CLOSED') return 'CARD_CLOSED'
  if (card.state !== 'ACTIVE' && card.state !== 'FROZEN') return 'CARD_NOT_ACTIVE'
  if (card.state === 'FROZEN' || suffix === '003') return 'CARD_PAUSED'
  if (DEBITS.has(kind) && card.maxSpendPerTransaction !== null && auth.amount > card.maxSpendPerTransaction)
    return 'SPENDING_LIMIT_EXCEEDED'
  if (DEBITS.has(kind) && suffix === '002') return 'INSUFFICIENT_FUNDS'
  return undefined
}

/** The shared rule for a customer's money (customer-debit.ts), as a decline reason: the network gets an answer, not an error. */
function debitRefusal(ctx: SandboxContext, card: StoredCard, accountId: string): string | undefined {
  try {
    checkCustomerDebit(ctx, 'card.authorization', {customerId: card.cardholderId, accountId})
    return undefined
  } catch (e) {
    if (e instanceof HttpError) return e.code
    throw e
  }
}

/** The authorization family: decide, move the money, record the transaction, fire its event. */
function authorize(ctx: SandboxContext, card: StoredCard, kind: CardSimulator, auth: AuthInput, token: string): void {
  const direction = CREDITS.has(kind) ? 'CREDIT' : 'DEBIT'
  const reason = declineReason(card, kind, auth)
  if (reason) return decline(ctx, card, token, reason, auth.amount, auth.merchant, direction)
  const base = {token, direction, merchant: auth.merchant, amount: auth.amount} as const
  if (direction === 'CREDIT') {
    const accountId = card.fundingSources[0]
    const settled = kind === 'financial_credit_authorization' ? auth.amount : 0
    if (settled) credit(ctx, accountId, settled)
    post(ctx, newCardTransaction(ctx, card, {...base, accountId, held: 0, pulled: 0, settled}))
    return
  }
  const account = fundingAccountFor(ctx, card, auth.amount)
  if (!account) return decline(ctx, card, token, 'INSUFFICIENT_FUNDS', auth.amount, auth.merchant, direction)
  const refused = debitRefusal(ctx, card, account.id)
  if (refused) return decline(ctx, card, token, refused, auth.amount, auth.merchant, direction)
  const single = kind === 'financial_authorization'
  if (single) pull(ctx, account.id, auth.amount)
  else if (auth.amount > 0) hold(ctx, account.id, auth.amount)
  const t = newCardTransaction(ctx, card, {
    ...base,
    accountId: account.id,
    held: single ? 0 : auth.amount,
    pulled: auth.amount,
    settled: single ? auth.amount : 0,
  })
  // Descriptor suffix 006: the pull succeeded but its confirmation reported FAILED.
  post(ctx, auth.merchant.descriptor.slice(-3) === '006' ? {...t, status: 'EXCEPTION'} : t)
}

export function registerCardTransactionJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('card.expire', (p) => {
    const t = ctx.db.get<StoredCardTransaction>('cardTransactions', String(p.cardTransactionId))
    if (t) voidAuthorization(ctx, t)
  })
  ctx.scheduler.on('card.authorize', (p) => {
    const card = ctx.db.get<StoredCard>('cards', String(p.cardId))
    if (card) authorize(ctx, card, p.kind, p.auth, p.token)
  })
}
