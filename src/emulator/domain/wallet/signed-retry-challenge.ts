// Leg 1 of the sandbox's signed retry: the pending-request record and the 202 that issues it.
import {createHash} from 'node:crypto'
import type {CredentialType} from '../../../lib/schemas/wallet.js'
import type {SandboxContext} from '../../context.js'
import {newId} from '../../ids.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {walletSettings} from './state.js'
import type {SignerRule} from './stamps.js'

/** The table of issued challenges, by request id. */
export const PENDING = 'walletRequests'

export interface SignedOperation {
  /** e.g. auth_credential.delete (the webhook's operationType). */
  operation: string
  resourceType: 'AUTH_METHOD' | 'SESSION' | 'INTERNAL_ACCOUNT' | 'CUSTOMER' | 'DELEGATED_KEY'
  resourceId: string
  signer: SignerRule
  /** Adds `type` to the 202 body (AuthSignedRequestChallenge). */
  challengeType?: CredentialType
  /** Leg-1 facts the execution compares against (credential-set snapshot, OTP public key...). */
  context?: Record<string, unknown>
  /** Export: nothing is stored, so the re-send after settling is what produces the answer (rule 4). */
  deliverOnResend?: boolean
  /** Runs when the 202 is issued (marks single-use inputs such as an OIDC token as used). */
  onChallenge?: () => void
}

export interface PendingRequest {
  id: string
  operation: string
  resourceType: string
  resourceId: string
  method: string
  path: string
  bodySha256: string
  payloadToSign: string
  expiresAt: string
  context: Record<string, unknown>
  deliverOnResend: boolean
  /** The operation ran (or is settling); the Request-Id cannot start it again. */
  consumed: boolean
  /** The terminal answer went out; any further use is a reuse. */
  delivered: boolean
  processing?: {operationId: string; stamp: string; settled: boolean; result?: EmuResponse}
}

export type Execute = (pending: PendingRequest) => EmuResponse | Promise<EmuResponse>

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** A 202 challenge for `op` over this request (exported for multi-leg flows: delegated keys answer a signed leg with the next challenge). */
export function challenge(ctx: SandboxContext, req: EmuRequest, op: SignedOperation): EmuResponse {
  const id = newId('Request')
  const expiresAt = ctx.iso(ctx.now() + walletSettings(ctx).signedChallengeTtlSeconds * 1000)
  const bodySha256 = sha256Hex(req.rawBody)
  const payloadToSign = JSON.stringify({
    operation: op.operation,
    method: req.method,
    path: req.path,
    resourceId: op.resourceId,
    requestId: id,
    bodySha256,
    expiresAt,
  })
  const p: PendingRequest = {
    id,
    operation: op.operation,
    resourceType: op.resourceType,
    resourceId: op.resourceId,
    method: req.method,
    path: req.path,
    bodySha256,
    payloadToSign,
    expiresAt,
    context: op.context ?? {},
    deliverOnResend: op.deliverOnResend ?? false,
    consumed: false,
    delivered: false,
  }
  ctx.db.put(PENDING, id, p)
  op.onChallenge?.()
  return {
    status: 202,
    body: {payloadToSign, requestId: id, expiresAt, ...(op.challengeType ? {type: op.challengeType} : {})},
  }
}
