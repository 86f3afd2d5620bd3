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

export function startLogin(emu: SandboxContext, st: ScaState, factor: ScaFactor) {
  checkLock(emu, st)
  requireEnrolled(st, factor)
  const expiresAt = emu.iso(emu.now() + emu.settings().scaChallengeTtlMs)
  if (factor === 'SMS_OTP') {
    const challengeId = newId('ScaChallenge')
    saveSca(emu, {...st, login: {factor, challengeId, expiresAt}})
    emu.log(`sca: login code for ${st.customerId} sent by SMS (challenge ${challengeId})`)
    return {factor, challengeId, expiresAt}
  }
  if (factor === 'TOTP') {
    saveSca(emu, {...st, login: {factor, expiresAt}})
    return {factor, expiresAt}
  }
  const challenge = randomBytes(32).toString('base64url')
  const passkey = st.factors.find((f) => f.factor === 'PASSKEY')!
  saveSca(emu, {...st, login: {factor, expiresAt, passkeyChallenge: challenge}})
  return {
    factor,
    expiresAt,
    passkeyOptions: {challenge, rpId: 'localhost', allowCredentials: [{type: 'public-key', id: passkey.credentialId}]},
    allowedOrigins: emu.settings().passkeyOrigins,
    relyingPartyId: 'localhost',
  }
}

export interface Proof {
  code?: string | null
  passkeyAssertion?: Record<string, unknown> | null
  origin?: string | null
}

/** Checks a proof for `factor`; a wrong one counts towards the lock (and is refused). */
export function checkProof(emu: SandboxContext, st: ScaState, factor: string, proof: Proof): void {
  if (factor === 'PASSKEY') {
    if (!proof.passkeyAssertion)
      throw invalid([{field: 'passkeyAssertion', message: 'is required for a PASSKEY challenge'}])
    const passkey = st.factors.find((f) => f.factor === 'PASSKEY')
    const id = proof.passkeyAssertion.credentialId ?? proof.passkeyAssertion.id
    if (proof.origin && !emu.settings().passkeyOrigins.includes(proof.origin))
      throw invalid([{field: 'origin', message: `must be one of ${emu.settings().passkeyOrigins.join(', ')}`}])
    if (!passkey || id !== passkey.credentialId)
      throw failedProof(emu, st, 'passkeyAssertion', 'was not made by the enrolled passkey')
    return
  }
  if (!proof.code) throw invalid([{field: 'code', message: `is required for a ${factor} challenge`}])
  if (proof.code !== SANDBOX_SCA_CODE) throw failedProof(emu, st, 'code', 'does not match the code that was sent')
}

export function completeLogin(
  emu: SandboxContext,
  st: ScaState,
  body: Proof & {factor: ScaFactor; challengeId?: string | null},
) {
  checkLock(emu, st)
  const login = st.login
  if (!login || login.factor !== body.factor)
    throw invalid([{field: 'factor', message: `no ${body.factor} login was started; call POST /sca/login/start first`}])
  if (login.factor === 'SMS_OTP' && body.challengeId !== login.challengeId)
    throw invalid([{field: 'challengeId', message: 'must echo the challengeId of the started login'}])
  if (Date.parse(login.expiresAt) <= emu.now())
    throw invalid([{field: 'code', message: 'the login challenge expired; start a new login'}])
  checkProof(emu, st, body.factor, body)
  const sessionExpiresAt = emu.iso(emu.now() + SESSION_DAYS * DAY_MS)
  saveSca(emu, {...st, login: undefined, sessionExpiresAt, failedAttempts: 0, lockedUntil: null})
  return {status: 'ACTIVE', sessionExpiresAt}
}

export function recordEvent(
  emu: SandboxContext,
  st: ScaState,
  eventType: 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT',
) {
  checkLock(emu, st)
  const next = eventType === 'FAILED_LOGIN_ATTEMPT' ? countFailure(emu, st) : saveSca(emu, {...st, failedAttempts: 0})
  return {eventType, ...lockDetails(emu, next)}
}
