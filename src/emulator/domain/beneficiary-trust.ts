import type {SandboxContext} from '../context.js'
import {invalid} from '../http-error.js'
import {newId} from '../ids.js'
import {getExternalAccount} from './external-accounts.js'
import {checkLock, factorsOf, scaState} from './sca.js'
import {checkProof, type Proof} from './sca-login.js'

/**
 * Trusted beneficiaries (api-gaps 3.2, sandbox-behaviour 15): trusting or untrusting one is an SCA
 * step. The start answers the challenge (a code "sent by SMS", always 123456 in the sandbox); the
 * confirm with that code applies the change. For a platform that does not require SCA both answer
 * 409, as every SCA endpoint does (scaState), and the beneficiary stays as it was.
 */
export function startTrustChange(ctx: SandboxContext, id: string, trusted: boolean): Record<string, unknown> {
  const a = getExternalAccount(ctx, id)
  const st = scaState(ctx, String(a.customerId))
  checkLock(ctx, st)
  const challenge = {
    id: newId('ScaChallenge'),
    expiresAt: ctx.iso(ctx.now() + ctx.settings().scaChallengeTtlMs),
    factor: 'SMS_OTP',
    availableFactors: factorsOf(st).map((f) => f.factor),
  }
  // A newer start replaces an unconfirmed one, for either direction.
  ctx.db.put('externalAccounts', a.id, {
    ...a,
    trustChallenge: {id: challenge.id, expiresAt: challenge.expiresAt, trusted},
    updatedAt: ctx.iso(),
  })
  ctx.log(`sca: ${trusted ? 'trust' : 'untrust'} code for ${a.id} sent by SMS (challenge ${challenge.id})`)
  return {scaChallenge: challenge}
}

export function confirmTrustChange(
  ctx: SandboxContext,
  id: string,
  trusted: boolean,
  proof: Proof & {challengeId?: string | null},
): {trusted: boolean} {
  const a = getExternalAccount(ctx, id)
  const st = scaState(ctx, String(a.customerId))
  checkLock(ctx, st)
  const pending = a.trustChallenge
  const verb = trusted ? 'trust' : 'untrust'
  if (!pending || pending.trusted !== trusted || Date.parse(pending.expiresAt) <= ctx.now())
    throw invalid([{field: 'challengeId', message: `no ${verb} of ${a.id} is waiting for its code; start it again`}])
  if (proof.challengeId && proof.challengeId !== pending.id)
    throw invalid([
      {field: 'challengeId', message: `must be the challenge of the latest ${verb} start (${pending.id})`},
    ])
  checkProof(ctx, st, proof.passkeyAssertion ? 'PASSKEY' : 'SMS_OTP', proof)
  const {trustChallenge: _done, ...rest} = a
  ctx.db.put('externalAccounts', a.id, {...rest, trusted, updatedAt: ctx.iso()})
  return {trusted}
}
