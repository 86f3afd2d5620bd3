import type {SandboxContext} from '../context.js'
import {conflict, invalid, keepingWrites} from '../http-error.js'
import {newId} from '../ids.js'
import {executeQuote, outgoing} from './quote-execute.js'
import {getQuote, type StoredQuote} from './quotes.js'
import {checkLock, factorsOf, requireScaSession, scaRequired, scaState, type ScaState} from './sca.js'
import {checkProof, type Proof} from './sca-login.js'
import {failPayment, publicTransaction, type StoredTransaction} from './transactions.js'

/**
 * SCA on money movement: a customer of a platform that requires SCA needs a login session to quote
 * and to execute; an execute then holds the payment in PENDING_AUTHORIZATION with an scaChallenge
 * until POST /quotes/{id}/authorize, and a challenge left to expire fails it with SCA_NOT_COMPLETED.
 */
export function registerScaQuoteJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('sca.challenge-expire', (p) => {
    const q = ctx.db.get<StoredQuote>('quotes', String(p.quoteId))
    if (q?.status === 'PENDING_AUTHORIZATION' && q.scaChallenge?.id === p.challengeId) expireChallenge(ctx, q)
  })
}

/** The execute gate (wired in emulator.ts): an SCA customer's payment waits for authorization. */
export function scaGate({
  ctx,
  quote,
  agentId,
  agentAuto,
}: {
  ctx: SandboxContext
  quote: StoredQuote
  agentId?: string
  agentAuto?: boolean
}): StoredQuote | undefined {
  return scaRequired(ctx) ? holdForAuthorization(ctx, quote, {agentId, agentAuto}) : undefined
}

function newChallenge(ctx: SandboxContext, q: StoredQuote, purpose: string): NonNullable<StoredQuote['scaChallenge']> {
  const st = scaState(ctx, q._.customerId)
  const challenge = {
    id: newId('ScaChallenge'),
    expiresAt: ctx.iso(ctx.now() + ctx.settings().scaChallengeTtlMs),
    factor: 'SMS_OTP',
    availableFactors: factorsOf(st).map((f) => f.factor),
    purpose,
  }
  ctx.scheduler.after(ctx.settings().scaChallengeTtlMs, 'sca.challenge-expire', {
    quoteId: q.id,
    challengeId: challenge.id,
  })
  ctx.log(`sca: authorization code for ${q.id} sent by SMS (challenge ${challenge.id})`)
  return challenge
}

/**
 * POST /quotes for a real-time-funded quote of an SCA customer: answered 202 in PENDING_AUTHORIZATION,
 * its payment instructions withheld until the quote is authorized.
 */
export function holdNewQuote(ctx: SandboxContext, q: StoredQuote): StoredQuote {
  if (!scaRequired(ctx) || q._.sourceKind !== 'REALTIME') return q
  const {paymentInstructions, ...rest} = q
  return ctx.db.put('quotes', q.id, {
    ...rest,
    status: 'PENDING_AUTHORIZATION' as const,
    scaChallenge: newChallenge(ctx, q, 'TRANSFER'),
    _: {...q._, withheldInstructions: paymentInstructions},
  })
}

function holdForAuthorization(
  ctx: SandboxContext,
  q: StoredQuote,
  by: {agentId?: string; agentAuto?: boolean},
): StoredQuote {
  requireScaSession(ctx, q._.customerId)
  const challenge = newChallenge(ctx, q, 'PAYOUT')
  const held = ctx.db.put('quotes', q.id, {
    ...q,
    status: 'PENDING_AUTHORIZATION' as const,
    scaChallenge: challenge,
    _: {...q._, heldFor: by},
  })
  const t = ctx.db.put(
    'transactions',
    q.transactionId!,
    outgoing(ctx, held, q.transactionId!, undefined, {status: 'PENDING_AUTHORIZATION', agentId: by.agentId}),
  )
  ctx.webhooks.emit('OUTGOING_PAYMENT.PENDING_AUTHORIZATION', publicTransaction(t))
  return held
}

function expireChallenge(ctx: SandboxContext, q: StoredQuote): void {
  const t = q.transactionId ? ctx.db.get<StoredTransaction>('transactions', q.transactionId) : undefined
  ctx.db.put('quotes', q.id, {...q, status: 'FAILED' as const, scaChallenge: undefined})
  if (t?.status === 'PENDING_AUTHORIZATION') failPayment(ctx, t, 'SCA_NOT_COMPLETED')
}

function pendingQuote(ctx: SandboxContext, quoteId: string): {q: StoredQuote; st: ScaState} {
  const q = getQuote(ctx, quoteId)
  const st = scaState(ctx, q._.customerId)
  checkLock(ctx, st)
  if (q.status !== 'PENDING_AUTHORIZATION' || !q.scaChallenge)
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${q.id} is ${q.status}; only a quote in PENDING_AUTHORIZATION can be authorized`,
      {status: q.status},
    )
  if (Date.parse(q.scaChallenge.expiresAt) <= ctx.now()) {
    expireChallenge(ctx, q)
    throw keepingWrites(
      conflict(
        'INVALID_STATE_TRANSITION',
        `The SCA challenge of ${q.id} expired at ${q.scaChallenge.expiresAt}; its transaction failed with SCA_NOT_COMPLETED`,
        {status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED'},
      ),
    )
  }
  return {q, st}
}

/** POST /quotes/{id}/authorize: the right proof releases the payment; a wrong one counts towards the lock. */
export function authorizeQuote(ctx: SandboxContext, quoteId: string, proof: Proof): StoredQuote {
  const {q, st} = pendingQuote(ctx, quoteId)
  requireScaSession(ctx, st.customerId)
  const factor = proof.passkeyAssertion ? 'PASSKEY' : q.scaChallenge!.factor
  checkProof(ctx, st, factor, proof, mayLockCustomer(ctx) ? undefined : (f, m) => failedQuoteProof(ctx, q, f, m))
  ctx.db.put('scaStates', st.customerId, {...st, failedAttempts: 0})
  if (q._.sourceKind === 'REALTIME') {
    // Authorized: the customer may now fund it; the instructions come back.
    const {withheldInstructions, ...internal} = q._
    return ctx.db.put('quotes', q.id, {
      ...q,
      status: 'PENDING' as const,
      scaChallenge: undefined,
      paymentInstructions: withheldInstructions,
      _: internal,
    })
  }
  ctx.db.put('quotes', q.id, {...q, scaChallenge: undefined})
  return executeQuote(ctx, q.id, {scaAuthorized: true, ...q._.heldFor})
}

/**
 * The session rule (docs/sandbox.md "Who may call what"): only a caller that may manage the
 * customer (MANAGE; the sandbox itself) moves the customer's failed-attempt counter, so a
 * payments-only token cannot lock a customer out.
 */
function mayLockCustomer(ctx: SandboxContext): boolean {
  const p = ctx.principal
  return p.kind === 'system' || (p.kind === 'platform' && p.permissions.includes('MANAGE'))
}

/**
 * A payments-only caller's wrong proof counts against this quote's challenge instead: at the same
 * limit the challenge fails, and its payment with it (SCA_NOT_COMPLETED), as an expired one does.
 */
function failedQuoteProof(ctx: SandboxContext, q: StoredQuote, field: string, message: string): Error {
  const failedAttempts = (q._.scaFailedAttempts ?? 0) + 1
  const left = ctx.settings().scaMaxFailedAttempts - failedAttempts
  if (left <= 0) {
    expireChallenge(ctx, q)
    return keepingWrites(
      conflict(
        'INVALID_STATE_TRANSITION',
        `${failedAttempts} wrong proofs for ${q.id}: its SCA challenge failed, and its transaction with SCA_NOT_COMPLETED`,
        {status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED'},
      ),
    )
  }
  ctx.db.put('quotes', q.id, {...q, _: {...q._, scaFailedAttempts: failedAttempts}})
  return keepingWrites(
    invalid([{field, message: `${message}; ${left} attempt(s) left before this quote's challenge fails`}]),
  )
}

/** POST /quotes/{id}/authorize/resend: the same SMS challenge again (its expiry is not extended). */
export function resendAuthorization(ctx: SandboxContext, quoteId: string): void {
  const {q} = pendingQuote(ctx, quoteId)
  if (q.scaChallenge!.factor !== 'SMS_OTP')
    throw conflict('INVALID_STATE_TRANSITION', `A ${q.scaChallenge!.factor} challenge cannot be re-sent`)
  ctx.log(`sca: authorization code for ${q.id} re-sent by SMS (challenge ${q.scaChallenge!.id})`)
}
