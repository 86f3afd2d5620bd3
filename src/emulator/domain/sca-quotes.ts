import type {SandboxContext} from '../context.js'
import {conflict, keepingWrites} from '../http-error.js'
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
export function registerScaQuoteJobs(emu: SandboxContext): void {
  emu.scheduler.on('sca.challenge-expire', (p) => {
    const q = emu.db.get<StoredQuote>('quotes', String(p.quoteId))
    if (q?.status === 'PENDING_AUTHORIZATION' && q.scaChallenge?.id === p.challengeId) expireChallenge(emu, q)
  })
}

/** The execute gate (wired in emulator.ts): an SCA customer's payment waits for authorization. */
export function scaGate({
  emu,
  quote,
  agentId,
  agentAuto,
}: {
  emu: SandboxContext
  quote: StoredQuote
  agentId?: string
  agentAuto?: boolean
}): StoredQuote | undefined {
  return scaRequired(emu) ? holdForAuthorization(emu, quote, {agentId, agentAuto}) : undefined
}

function newChallenge(emu: SandboxContext, q: StoredQuote, purpose: string): NonNullable<StoredQuote['scaChallenge']> {
  const st = scaState(emu, q._.customerId)
  const challenge = {
    id: newId('ScaChallenge'),
    expiresAt: emu.iso(emu.now() + emu.settings().scaChallengeTtlMs),
    factor: 'SMS_OTP',
    availableFactors: factorsOf(st).map((f) => f.factor),
    purpose,
  }
  emu.scheduler.after(emu.settings().scaChallengeTtlMs, 'sca.challenge-expire', {
    quoteId: q.id,
    challengeId: challenge.id,
  })
  emu.log(`sca: authorization code for ${q.id} sent by SMS (challenge ${challenge.id})`)
  return challenge
}

/**
 * POST /quotes for a real-time-funded quote of an SCA customer: answered 202 in PENDING_AUTHORIZATION,
 * its payment instructions withheld until the quote is authorized.
 */
export function holdNewQuote(emu: SandboxContext, q: StoredQuote): StoredQuote {
  if (!scaRequired(emu) || q._.sourceKind !== 'REALTIME') return q
  const {paymentInstructions, ...rest} = q
  return emu.db.put('quotes', q.id, {
    ...rest,
    status: 'PENDING_AUTHORIZATION' as const,
    scaChallenge: newChallenge(emu, q, 'TRANSFER'),
    _: {...q._, withheldInstructions: paymentInstructions},
  })
}

function holdForAuthorization(
  emu: SandboxContext,
  q: StoredQuote,
  by: {agentId?: string; agentAuto?: boolean},
): StoredQuote {
  requireScaSession(emu, q._.customerId)
  const challenge = newChallenge(emu, q, 'PAYOUT')
  const held = emu.db.put('quotes', q.id, {
    ...q,
    status: 'PENDING_AUTHORIZATION' as const,
    scaChallenge: challenge,
    _: {...q._, heldFor: by},
  })
  const t = emu.db.put(
    'transactions',
    q.transactionId!,
    outgoing(emu, held, q.transactionId!, undefined, {status: 'PENDING_AUTHORIZATION', agentId: by.agentId}),
  )
  emu.webhooks.emit('OUTGOING_PAYMENT.PENDING_AUTHORIZATION', publicTransaction(t))
  return held
}

function expireChallenge(emu: SandboxContext, q: StoredQuote): void {
  const t = q.transactionId ? emu.db.get<StoredTransaction>('transactions', q.transactionId) : undefined
  emu.db.put('quotes', q.id, {...q, status: 'FAILED' as const, scaChallenge: undefined})
  if (t?.status === 'PENDING_AUTHORIZATION') failPayment(emu, t, 'SCA_NOT_COMPLETED')
}

function pendingQuote(emu: SandboxContext, quoteId: string): {q: StoredQuote; st: ScaState} {
  const q = getQuote(emu, quoteId)
  const st = scaState(emu, q._.customerId)
  checkLock(emu, st)
  if (q.status !== 'PENDING_AUTHORIZATION' || !q.scaChallenge)
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${q.id} is ${q.status}; only a quote in PENDING_AUTHORIZATION can be authorized`,
      {status: q.status},
    )
  if (Date.parse(q.scaChallenge.expiresAt) <= emu.now()) {
    expireChallenge(emu, q)
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
export function authorizeQuote(emu: SandboxContext, quoteId: string, proof: Proof): StoredQuote {
  const {q, st} = pendingQuote(emu, quoteId)
  requireScaSession(emu, st.customerId)
  const factor = proof.passkeyAssertion ? 'PASSKEY' : q.scaChallenge!.factor
  checkProof(emu, st, factor, proof)
  emu.db.put('scaStates', st.customerId, {...st, failedAttempts: 0})
  if (q._.sourceKind === 'REALTIME') {
    // Authorized: the customer may now fund it; the instructions come back.
    const {withheldInstructions, ...internal} = q._
    return emu.db.put('quotes', q.id, {
      ...q,
      status: 'PENDING' as const,
      scaChallenge: undefined,
      paymentInstructions: withheldInstructions,
      _: internal,
    })
  }
  emu.db.put('quotes', q.id, {...q, scaChallenge: undefined})
  return executeQuote(emu, q.id, {scaAuthorized: true, ...q._.heldFor})
}

/** POST /quotes/{id}/authorize/resend: the same SMS challenge again (its expiry is not extended). */
export function resendAuthorization(emu: SandboxContext, quoteId: string): void {
  const {q} = pendingQuote(emu, quoteId)
  if (q.scaChallenge!.factor !== 'SMS_OTP')
    throw conflict('INVALID_STATE_TRANSITION', `A ${q.scaChallenge!.factor} challenge cannot be re-sent`)
  emu.log(`sca: authorization code for ${q.id} re-sent by SMS (challenge ${q.scaChallenge!.id})`)
}
