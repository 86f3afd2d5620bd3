/** SCA factor enrolment (TOTP, one passkey) and removal; SMS_OTP is always there. */
import {randomBytes} from 'node:crypto'
import {base32} from '@scure/base'
import type {SandboxContext} from '../context.js'
import {conflict, invalid, notFound} from '../http-error.js'
import {SANDBOX_SCA_CODE, failedProof, saveSca, type FactorView, type ScaState} from './sca.js'

export function startEnrolment(ctx: SandboxContext, st: ScaState, type: 'TOTP' | 'PASSKEY') {
  if (type === 'PASSKEY') {
    if (st.factors.some((f) => f.factor === 'PASSKEY'))
      throw conflict(
        'PASSKEY_ALREADY_ENROLLED',
        `${st.customerId} has a passkey enrolled already (one per customer); delete it first`,
      )
    const challenge = randomBytes(32).toString('base64url')
    saveSca(ctx, {...st, pending: {...st.pending, passkeyChallenge: challenge}})
    const origins = ctx.settings().passkeyOrigins
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
  saveSca(ctx, {...st, pending: {...st.pending, totpSecret: secret}})
  return {
    type,
    secret,
    secretBase32Encoded: secret,
    totpUri: `otpauth://totp/svc-sandbox:${encodeURIComponent(st.customerId)}?secret=${secret}&issuer=svc-sandbox`,
  }
}

export function confirmEnrolment(
  ctx: SandboxContext,
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
    if (body.code !== SANDBOX_SCA_CODE) throw failedProof(ctx, st, 'code', 'does not match the authenticator code')
    saveSca(ctx, {
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
  if (!ctx.settings().passkeyOrigins.includes(body.origin))
    throw invalid([{field: 'origin', message: `must be one of ${ctx.settings().passkeyOrigins.join(', ')}`}])
  const factor: FactorView = {factor: 'PASSKEY', credentialId: body.credential.id, name: 'Passkey'}
  saveSca(ctx, {...st, factors: [...st.factors, factor], pending: {...st.pending, passkeyChallenge: undefined}})
  return {type: 'PASSKEY', factor}
}

export function deleteFactor(ctx: SandboxContext, st: ScaState, credentialId: string): void {
  if (!st.factors.some((f) => f.credentialId === credentialId))
    throw notFound('NOT_FOUND', `SCA factor ${credentialId} of ${st.customerId}`)
  saveSca(ctx, {...st, factors: st.factors.filter((f) => f.credentialId !== credentialId)})
}
