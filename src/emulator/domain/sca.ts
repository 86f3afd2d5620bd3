import {randomBytes} from 'node:crypto'
import {base32} from '@scure/base'
import type {SandboxContext} from '../context.js'
import {HttpError, conflict, invalid, keepingWrites, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {getCustomer} from './customers.js'

/**
 * Strong customer authentication (api-gaps 4.3, sandbox-behaviour 15). One state document per
 * customer: enrolled factors (SMS_OTP is implicit), the login in progress, the 180-day session, and
 * the failed-proof counter that locks the account. Codes are always 123456 in the sandbox; nothing
 * is really sent (each "SMS" is written to the emulator log without the code).
 */
export const SANDBOX_SCA_CODE = '123456'
export const SESSION_DAYS = 180
const DAY_MS = 86_400_000
const RESETS_PER_DAY = 5

export type ScaFactor = 'SMS_OTP' | 'TOTP' | 'PASSKEY'
export interface FactorView {
  factor: ScaFactor
  credentialId?: string
  name?: string
}

export interface ScaState {
  customerId: string
  factors: FactorView[]
  pending?: {totpSecret?: string; passkeyChallenge?: string}
  login?: {factor: ScaFactor; challengeId?: string; expiresAt: string; passkeyChallenge?: string}
  sessionExpiresAt?: string
  failedAttempts: number
  lockedUntil?: string | null
  resetStarts?: number[]
}

export function scaRequired(emu: SandboxContext): boolean {
  return emu.settings().scaRequired
}

/** The customer's SCA state; 404 for an unknown customer, 409 when SCA does not apply to it. */
export function scaState(emu: SandboxContext, customerId: string): ScaState {
  const c = getCustomer(emu, customerId)
  if (!scaRequired(emu))
    throw conflict(
      'CONFLICT',
      `SCA is not required for ${c.id}: its platform does not require strong customer authentication (sandbox: PATCH /config {sandbox: {scaRequired: true}})`,
    )
  return emu.db.get<ScaState>('scaStates', c.id) ?? {customerId: c.id, factors: [], failedAttempts: 0}
}

export function saveSca(emu: SandboxContext, st: ScaState): ScaState {
  return emu.db.put('scaStates', st.customerId, st)
}

export function factorsOf(st: ScaState): FactorView[] {
  return [{factor: 'SMS_OTP'}, ...st.factors]
}

function lockDetails(emu: SandboxContext, st: ScaState) {
  return {suspended: false, lockedUntil: st.lockedUntil ?? null, failedAttempts: st.failedAttempts}
}

export function isLocked(emu: SandboxContext, st: ScaState): boolean {
  return Boolean(st.lockedUntil && Date.parse(st.lockedUntil) > emu.now())
}

function locked(emu: SandboxContext, st: ScaState): HttpError {
  return new HttpError(
    423,
    'ACCOUNT_LOCKED',
    `${st.customerId} is locked after ${st.failedAttempts} failed authentication attempts until ${st.lockedUntil}`,
    lockDetails(emu, st),
  )
}

export function checkLock(emu: SandboxContext, st: ScaState): void {
  if (isLocked(emu, st)) throw locked(emu, st)
}

/** Counts a failed proof; the attempt that reaches the limit locks the account. Both refusals keep the count. */
export function countFailure(emu: SandboxContext, st: ScaState): ScaState {
  const failedAttempts = st.failedAttempts + 1
  const lock = failedAttempts >= emu.settings().scaMaxFailedAttempts
  return saveSca(emu, {
    ...st,
    failedAttempts,
    lockedUntil: lock ? emu.iso(emu.now() + emu.settings().scaLockMs) : (st.lockedUntil ?? null),
  })
}

export function failedProof(emu: SandboxContext, st: ScaState, field: string, message: string): HttpError {
  const next = countFailure(emu, st)
  if (isLocked(emu, next)) return keepingWrites(locked(emu, next))
  const left = emu.settings().scaMaxFailedAttempts - next.failedAttempts
  return keepingWrites(
    new HttpError(400, 'INVALID_INPUT', `Invalid input: ${field}`, {
      errors: [{field, message: `${message}; ${left} attempt(s) left before the account locks`}],
      failedAttempts: next.failedAttempts,
    }),
  )
}

export function hasSession(emu: SandboxContext, st: ScaState): boolean {
  return Boolean(st.sessionExpiresAt && Date.parse(st.sessionExpiresAt) > emu.now())
}

/** Quote create/execute for a customer whose platform requires SCA: locked → 423, no session → 409. */
export function requireScaSession(emu: SandboxContext, customerId: string): void {
  if (!scaRequired(emu)) return
  const st = emu.db.get<ScaState>('scaStates', customerId) ?? {customerId, factors: [], failedAttempts: 0}
  checkLock(emu, st)
  if (!hasSession(emu, st)) {
    throw conflict(
      'SCA_SESSION_REQUIRED',
      `${customerId} has no active SCA session; log the customer in (POST /sca/login/start, then /sca/login/complete) and retry`,
      {customerId, sessionExpiresAt: st.sessionExpiresAt ?? null},
    )
  }
}

// --- factors ---------------------------------------------------------------------------------

export function startEnrolment(emu: SandboxContext, st: ScaState, type: 'TOTP' | 'PASSKEY') {
  if (type === 'PASSKEY') {
    if (st.factors.some((f) => f.factor === 'PASSKEY'))
      throw conflict(
        'PASSKEY_ALREADY_ENROLLED',
        `${st.customerId} has a passkey enrolled already (one per customer); delete it first`,
      )
    const challenge = randomBytes(32).toString('base64url')
    saveSca(emu, {...st, pending: {...st.pending, passkeyChallenge: challenge}})
    const origins = emu.settings().passkeyOrigins
    return {
      type,
      options: {
        challenge,
        rp: {id: 'localhost', name: 'svc local sandbox'},
        user: {id: Buffer.from(st.customerId).toString('base64url'), name: st.customerId, displayName: st.customerId},
        pubKeyCredParams: [{type: 'public-key', alg: -7}],
        timeout: 300_000,
      },
      allowedOrigins: origins,
      relyingPartyId: 'localhost',
    }
  }
  const secret = base32.encode(randomBytes(20)).replace(/=+$/, '')
  saveSca(emu, {...st, pending: {...st.pending, totpSecret: secret}})
  return {
    type,
    secret,
    secretBase32Encoded: secret,
    totpUri: `otpauth://totp/svc-sandbox:${encodeURIComponent(st.customerId)}?secret=${secret}&issuer=svc-sandbox`,
  }
}

export function confirmEnrolment(
  emu: SandboxContext,
  st: ScaState,
  body: {type: 'TOTP'; secret: string; code: string} | {type: 'PASSKEY'; origin: string; credential: {id: string}},
) {
  if (body.type === 'TOTP') {
    if (!st.pending?.totpSecret || st.pending.totpSecret !== body.secret)
      throw invalid([
        {
          field: 'secret',
          message: 'does not match a TOTP enrolment in progress; start one with POST /sca/factors {type: TOTP}',
        },
      ])
    if (body.code !== SANDBOX_SCA_CODE) throw failedProof(emu, st, 'code', 'does not match the authenticator code')
    saveSca(emu, {
      ...st,
      factors: [...st.factors.filter((f) => f.factor !== 'TOTP'), {factor: 'TOTP', name: 'Authenticator app'}],
      pending: {...st.pending, totpSecret: undefined},
      failedAttempts: 0,
    })
    return {type: 'TOTP', recoveryCodes: Array.from({length: 8}, () => randomBytes(5).toString('hex'))}
  }
  if (st.factors.some((f) => f.factor === 'PASSKEY'))
    throw conflict(
      'PASSKEY_ALREADY_ENROLLED',
      `${st.customerId} has a passkey enrolled already (one per customer); delete it first`,
    )
  if (!st.pending?.passkeyChallenge)
    throw invalid([
      {
        field: 'credential',
        message: 'no passkey enrolment is in progress; start one with POST /sca/factors {type: PASSKEY}',
      },
    ])
  if (!emu.settings().passkeyOrigins.includes(body.origin))
    throw invalid([{field: 'origin', message: `must be one of ${emu.settings().passkeyOrigins.join(', ')}`}])
  const factor: FactorView = {factor: 'PASSKEY', credentialId: body.credential.id, name: 'Passkey'}
  saveSca(emu, {...st, factors: [...st.factors, factor], pending: {...st.pending, passkeyChallenge: undefined}})
  return {type: 'PASSKEY', factor}
}

export function deleteFactor(emu: SandboxContext, st: ScaState, credentialId: string): void {
  if (!st.factors.some((f) => f.credentialId === credentialId))
    throw notFound('NOT_FOUND', `SCA factor ${credentialId} of ${st.customerId}`)
  saveSca(emu, {...st, factors: st.factors.filter((f) => f.credentialId !== credentialId)})
}

// --- login -----------------------------------------------------------------------------------

function requireEnrolled(st: ScaState, factor: ScaFactor): void {
  if (!factorsOf(st).some((f) => f.factor === factor))
    throw invalid([
      {
        field: 'factor',
        message: `${factor} is not enrolled for ${st.customerId} (enrolled: ${factorsOf(st)
          .map((f) => f.factor)
          .join(', ')})`,
      },
    ])
}

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

// --- factor reset ------------------------------------------------------------------------------

export interface ScaReset {
  resetId: string
  customerId: string
  factor: ScaFactor
  status: 'INITIATED' | 'LIVENESS_PASSED' | 'COMPLETED' | 'EXPIRED'
  expiresAt: string
  completedAt?: string | null
}

export function startReset(emu: SandboxContext, st: ScaState, factor: ScaFactor) {
  requireEnrolled(st, factor)
  const now = emu.now()
  const recent = (st.resetStarts ?? []).filter((t) => t > now - DAY_MS)
  if (recent.length >= RESETS_PER_DAY) {
    const retry = Math.ceil((recent[0] + DAY_MS - now) / 1000)
    throw new HttpError(
      429,
      'RATE_LIMITED',
      `At most ${RESETS_PER_DAY} factor resets per 24 hours per customer`,
      {retryAfterSeconds: retry},
      {'retry-after': String(retry)},
    )
  }
  saveSca(emu, {...st, resetStarts: [...recent, now]})
  const reset: ScaReset = {
    resetId: newId('ScaReset'),
    customerId: st.customerId,
    factor,
    status: 'INITIATED',
    expiresAt: emu.iso(now + DAY_MS),
    completedAt: null,
  }
  emu.db.put('scaResets', reset.resetId, reset)
  // The end user's liveness check passes on its own in the sandbox.
  emu.scheduler.after(emu.settings().livenessDelayMs, 'sca.reset-liveness', {resetId: reset.resetId})
  return {
    resetId: reset.resetId,
    livenessAccessToken: `sandbox-liveness-${randomBytes(8).toString('hex')}`,
    verificationLink: `https://localhost/sandbox/liveness/${encodeURIComponent(reset.resetId)}`,
    expiresAt: reset.expiresAt,
  }
}

export function getReset(emu: SandboxContext, st: ScaState, resetId: string): ScaReset {
  const r = emu.db.get<ScaReset>('scaResets', resetId)
  if (!r || r.customerId !== st.customerId) throw notFound('NOT_FOUND', `Reset ${resetId} of ${st.customerId}`)
  if (r.status !== 'COMPLETED' && Date.parse(r.expiresAt) <= emu.now()) return {...r, status: 'EXPIRED'}
  return r
}

export function publicReset(r: ScaReset) {
  return {
    status: r.status,
    factor: r.factor,
    enrollmentStatus: r.status === 'COMPLETED' ? 'COMPLETED' : 'PENDING',
    expiresAt: r.expiresAt,
    completedAt: r.completedAt ?? null,
  }
}

export function completeReset(
  emu: SandboxContext,
  st: ScaState,
  resetId: string,
  mobile?: {countryCode: string; number: string},
): void {
  const r = getReset(emu, st, resetId)
  if (r.status !== 'LIVENESS_PASSED')
    throw invalid([{field: 'resetId', message: `the reset is ${r.status}; it completes once liveness has passed`}])
  if (r.factor === 'SMS_OTP' && !mobile)
    throw invalid([{field: 'mobile', message: 'is required to complete an SMS_OTP reset (the new number)'}])
  emu.db.put('scaResets', r.resetId, {...r, status: 'COMPLETED', completedAt: emu.iso()})
  saveSca(emu, {
    ...st,
    factors: st.factors.filter((f) => f.factor !== r.factor),
    failedAttempts: 0,
    lockedUntil: null,
    ...(mobile ? {mobile} : {}),
  } as ScaState)
}

export function registerScaResetJobs(emu: SandboxContext): void {
  emu.scheduler.on('sca.reset-liveness', (p) => {
    const r = emu.db.get<ScaReset>('scaResets', String(p.resetId))
    if (r?.status === 'INITIATED') emu.db.put('scaResets', r.resetId, {...r, status: 'LIVENESS_PASSED'})
  })
}
