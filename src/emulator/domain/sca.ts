import type {SandboxContext} from '../context.js'
import {HttpError, conflict, invalid, keepingWrites} from '../http-error.js'
import {getCustomer} from './customers.js'

/**
 * Strong customer authentication (api-gaps 4.3, sandbox-behaviour 15). One state document per
 * customer: enrolled factors (SMS_OTP is implicit), the login in progress, the 180-day session, and
 * the failed-proof counter that locks the account. Codes are always 123456 in the sandbox; nothing
 * is really sent (each "SMS" is written to the emulator log without the code).
 * This file holds the state, the lock and the session; enrolment, login and factor reset build on
 * it in sca-factors.ts, sca-login.ts and sca-reset.ts.
 */
export const SANDBOX_SCA_CODE = '123456'
export const SESSION_DAYS = 180
export const DAY_MS = 86_400_000

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

export function scaRequired(ctx: SandboxContext): boolean {
  return ctx.settings().scaRequired
}

/** The customer's SCA state; 404 for an unknown customer, 409 when SCA does not apply to it. */
export function scaState(ctx: SandboxContext, customerId: string): ScaState {
  const c = getCustomer(ctx, customerId)
  if (!scaRequired(ctx))
    throw conflict(
      'CONFLICT',
      `SCA is not required for ${c.id}: its platform does not require strong customer authentication (sandbox: PATCH /config {sandbox: {scaRequired: true}})`,
    )
  return ctx.db.get<ScaState>('scaStates', c.id) ?? {customerId: c.id, factors: [], failedAttempts: 0}
}

export function saveSca(ctx: SandboxContext, st: ScaState): ScaState {
  return ctx.db.put('scaStates', st.customerId, st)
}

export function factorsOf(st: ScaState): FactorView[] {
  return [{factor: 'SMS_OTP'}, ...st.factors]
}

export function lockDetails(ctx: SandboxContext, st: ScaState) {
  return {suspended: false, lockedUntil: st.lockedUntil ?? null, failedAttempts: st.failedAttempts}
}

export function isLocked(ctx: SandboxContext, st: ScaState): boolean {
  return Boolean(st.lockedUntil && Date.parse(st.lockedUntil) > ctx.now())
}

function locked(ctx: SandboxContext, st: ScaState): HttpError {
  return new HttpError(
    423,
    'ACCOUNT_LOCKED',
    `${st.customerId} is locked after ${st.failedAttempts} failed authentication attempts until ${st.lockedUntil}`,
    lockDetails(ctx, st),
  )
}

export function checkLock(ctx: SandboxContext, st: ScaState): void {
  if (isLocked(ctx, st)) throw locked(ctx, st)
}

/** Counts a failed proof; the attempt that reaches the limit locks the account. Both refusals keep the count. */
export function countFailure(ctx: SandboxContext, st: ScaState): ScaState {
  const failedAttempts = st.failedAttempts + 1
  const lock = failedAttempts >= ctx.settings().scaMaxFailedAttempts
  return saveSca(ctx, {
    ...st,
    failedAttempts,
    lockedUntil: lock ? ctx.iso(ctx.now() + ctx.settings().scaLockMs) : (st.lockedUntil ?? null),
  })
}

export function failedProof(ctx: SandboxContext, st: ScaState, field: string, message: string): HttpError {
  const next = countFailure(ctx, st)
  if (isLocked(ctx, next)) return keepingWrites(locked(ctx, next))
  const left = ctx.settings().scaMaxFailedAttempts - next.failedAttempts
  return keepingWrites(
    new HttpError(400, 'INVALID_INPUT', `Invalid input: ${field}`, {
      errors: [{field, message: `${message}; ${left} attempt(s) left before the account locks`}],
      failedAttempts: next.failedAttempts,
    }),
  )
}

export function hasSession(ctx: SandboxContext, st: ScaState): boolean {
  return Boolean(st.sessionExpiresAt && Date.parse(st.sessionExpiresAt) > ctx.now())
}

/** Quote create/execute for a customer whose platform requires SCA: locked → 423, no session → 409. */
export function requireScaSession(ctx: SandboxContext, customerId: string): void {
  if (!scaRequired(ctx)) return
  const st = ctx.db.get<ScaState>('scaStates', customerId) ?? {customerId, factors: [], failedAttempts: 0}
  checkLock(ctx, st)
  if (!hasSession(ctx, st)) {
    throw conflict(
      'SCA_SESSION_REQUIRED',
      `${customerId} has no active SCA session; log the customer in (POST /sca/login/start, then /sca/login/complete) and retry`,
      {customerId, sessionExpiresAt: st.sessionExpiresAt ?? null},
    )
  }
}

/** 400 naming the enrolled factors when `factor` is not one of them. */
export function requireEnrolled(st: ScaState, factor: ScaFactor): void {
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
