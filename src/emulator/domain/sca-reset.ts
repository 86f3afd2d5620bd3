/** Factor reset: rate-limited per customer, liveness passes on its own after a delay, then the factor is removed. */
import {randomBytes} from 'node:crypto'
import type {SandboxContext} from '../context.js'
import {HttpError, invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {DAY_MS, requireEnrolled, saveSca, type ScaFactor, type ScaState} from './sca.js'

const RESETS_PER_DAY = 5

export interface ScaReset {
  resetId: string
  customerId: string
  factor: ScaFactor
  status: 'INITIATED' | 'LIVENESS_PASSED' | 'COMPLETED' | 'EXPIRED'
  expiresAt: string
  completedAt?: string | null
}

export function startReset(ctx: SandboxContext, st: ScaState, factor: ScaFactor) {
  requireEnrolled(st, factor)
  const now = ctx.now()
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
  saveSca(ctx, {...st, resetStarts: [...recent, now]})
  const reset: ScaReset = {
    resetId: newId('ScaReset'),
    customerId: st.customerId,
    factor,
    status: 'INITIATED',
    expiresAt: ctx.iso(now + DAY_MS),
    completedAt: null,
  }
  ctx.db.put('scaResets', reset.resetId, reset)
  // The end user's liveness check passes on its own in the sandbox.
  ctx.scheduler.after(ctx.settings().livenessDelayMs, 'sca.reset-liveness', {resetId: reset.resetId})
  return {
    resetId: reset.resetId,
    livenessAccessToken: `sandbox-liveness-${randomBytes(8).toString('hex')}`,
    verificationLink: `https://localhost/sandbox/liveness/${encodeURIComponent(reset.resetId)}`,
    expiresAt: reset.expiresAt,
  }
}

export function getReset(ctx: SandboxContext, st: ScaState, resetId: string): ScaReset {
  const r = ctx.db.get<ScaReset>('scaResets', resetId)
  if (!r || r.customerId !== st.customerId) throw notFound('NOT_FOUND', `Reset ${resetId} of ${st.customerId}`)
  if (r.status !== 'COMPLETED' && Date.parse(r.expiresAt) <= ctx.now()) return {...r, status: 'EXPIRED'}
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
  ctx: SandboxContext,
  st: ScaState,
  resetId: string,
  mobile?: {countryCode: string; number: string},
): void {
  const r = getReset(ctx, st, resetId)
  if (r.status !== 'LIVENESS_PASSED')
    throw invalid([{field: 'resetId', message: `the reset is ${r.status}; it completes once liveness has passed`}])
  if (r.factor === 'SMS_OTP' && !mobile)
    throw invalid([{field: 'mobile', message: 'is required to complete an SMS_OTP reset (the new number)'}])
  ctx.db.put('scaResets', r.resetId, {...r, status: 'COMPLETED', completedAt: ctx.iso()})
  saveSca(ctx, {
    ...st,
    factors: st.factors.filter((f) => f.factor !== r.factor),
    failedAttempts: 0,
    lockedUntil: null,
    ...(mobile ? {mobile} : {}),
  } as ScaState)
}

export function registerScaResetJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('sca.reset-liveness', (p) => {
    const r = ctx.db.get<ScaReset>('scaResets', String(p.resetId))
    if (r?.status === 'INITIATED') ctx.db.put('scaResets', r.resetId, {...r, status: 'LIVENESS_PASSED'})
  })
}
