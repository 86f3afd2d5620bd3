/** SCA login: a challenge for one factor, the proof that opens the 180-day session, and security events. */
import {randomBytes} from 'node:crypto'
import type {SandboxContext} from '../context.js'
import {invalid} from '../http-error.js'
import {newId} from '../ids.js'
import {
  DAY_MS,
  SANDBOX_SCA_CODE,
  SESSION_DAYS,
  checkLock,
  countFailure,
  failedProof,
  lockDetails,
  requireEnrolled,
  saveSca,
  type ScaFactor,
  type ScaState,
} from './sca.js'

export function startLogin(ctx: SandboxContext, st: ScaState, factor: ScaFactor) {
  checkLock(ctx, st)
  requireEnrolled(st, factor)
  const expiresAt = ctx.iso(ctx.now() + ctx.settings().scaChallengeTtlMs)
  if (factor === 'SMS_OTP') {
    const challengeId = newId('ScaChallenge')
    saveSca(ctx, {...st, login: {factor, challengeId, expiresAt}})
    ctx.log(`sca: login code for ${st.customerId} sent by SMS (challenge ${challengeId})`)
    return {factor, challengeId, expiresAt}
  }
  if (factor === 'TOTP') {
    saveSca(ctx, {...st, login: {factor, expiresAt}})
    return {factor, expiresAt}
  }
  const challenge = randomBytes(32).toString('base64url')
  const passkey = st.factors.find((f) => f.factor === 'PASSKEY')!
  saveSca(ctx, {...st, login: {factor, expiresAt, passkeyChallenge: challenge}})
  return {
    factor,
    expiresAt,
    passkeyOptions: {challenge, rpId: 'localhost', allowCredentials: [{type: 'public-key', id: passkey.credentialId}]},
    allowedOrigins: ctx.settings().passkeyOrigins,
    relyingPartyId: 'localhost',
  }
}

export interface Proof {
  code?: string | null
  passkeyAssertion?: Record<string, unknown> | null
  origin?: string | null
}

/** Checks a proof for `factor`; a wrong one is refused by `fail` (by default: it counts towards the customer's lock). */
export function checkProof(
  ctx: SandboxContext,
  st: ScaState,
  factor: string,
  proof: Proof,
  fail: (field: string, message: string) => Error = (field, message) => failedProof(ctx, st, field, message),
): void {
  if (factor === 'PASSKEY') {
    if (!proof.passkeyAssertion)
      throw invalid([{field: 'passkeyAssertion', message: 'is required for a PASSKEY challenge'}])
    const passkey = st.factors.find((f) => f.factor === 'PASSKEY')
    const id = proof.passkeyAssertion.credentialId ?? proof.passkeyAssertion.id
    if (proof.origin && !ctx.settings().passkeyOrigins.includes(proof.origin))
      throw invalid([{field: 'origin', message: `must be one of ${ctx.settings().passkeyOrigins.join(', ')}`}])
    if (!passkey || id !== passkey.credentialId) throw fail('passkeyAssertion', 'was not made by the enrolled passkey')
    return
  }
  if (!proof.code) throw invalid([{field: 'code', message: `is required for a ${factor} challenge`}])
  if (proof.code !== SANDBOX_SCA_CODE) throw fail('code', 'does not match the code that was sent')
}

export function completeLogin(
  ctx: SandboxContext,
  st: ScaState,
  body: Proof & {factor: ScaFactor; challengeId?: string | null},
) {
  checkLock(ctx, st)
  const login = st.login
  if (!login || login.factor !== body.factor)
    throw invalid([{field: 'factor', message: `no ${body.factor} login was started; call POST /sca/login/start first`}])
  if (login.factor === 'SMS_OTP' && body.challengeId !== login.challengeId)
    throw invalid([{field: 'challengeId', message: 'must echo the challengeId of the started login'}])
  if (Date.parse(login.expiresAt) <= ctx.now())
    throw invalid([{field: 'code', message: 'the login challenge expired; start a new login'}])
  checkProof(ctx, st, body.factor, body)
  const sessionExpiresAt = ctx.iso(ctx.now() + SESSION_DAYS * DAY_MS)
  saveSca(ctx, {...st, login: undefined, sessionExpiresAt, failedAttempts: 0, lockedUntil: null})
  return {status: 'ACTIVE', sessionExpiresAt}
}

export function recordEvent(
  ctx: SandboxContext,
  st: ScaState,
  eventType: 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT',
) {
  checkLock(ctx, st)
  const next = eventType === 'FAILED_LOGIN_ATTEMPT' ? countFailure(ctx, st) : saveSca(ctx, {...st, failedAttempts: 0})
  return {eventType, ...lockDetails(ctx, next)}
}
