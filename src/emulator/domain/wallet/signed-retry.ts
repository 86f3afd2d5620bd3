// Sandbox half: how the local Service checks and answers a signed retry. svc's client engine is lib/wallet/signed-retry.ts.
import {createHash} from 'node:crypto'
import type {CredentialType} from '../../../lib/schemas/wallet.js'
import type {SandboxContext} from '../../context.js'
import {HttpError} from '../../http-error.js'
import {newId} from '../../ids.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {walletSettings} from './state.js'
import {checkStamp, type SignerRule} from './stamps.js'

/**
 * The signed-retry pattern (spec 5.3/5.4) for every endpoint that needs a wallet signature:
 * leg 1 answers 202 with a `payloadToSign` bound to the exact request (operation, method, path,
 * resource, request id, SHA-256 of the raw body, expiry); leg 2 repeats the request byte for byte
 * with a stamp over it and the `Request-Id`. Leg 2 may answer 200 {status: PROCESSING}; re-sending
 * the identical signed request then yields the terminal answer once the operation settles.
 */
const PENDING = 'walletRequests'
const SETTLE_JOB = 'wallet.settle'

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

/** Closures of operations still settling in this process, by request id. */
const inflight = new Map<string, Execute>()

const header = (req: EmuRequest, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const unauthorized = (code: string, reason: string) => new HttpError(401, code, reason)

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * Runs the signed-retry dance. `prepare` validates the request and checks its preconditions (it
 * throws to refuse, before anything changes); `execute` performs the operation from the pending
 * request's context. Re-sends of a PROCESSING request skip `prepare`: the operation may already
 * have changed the state it checked.
 */
export async function signedRetry(
  req: EmuRequest,
  prepare: (leg: 1 | 2) => SignedOperation | Promise<SignedOperation>,
  execute: Execute,
): Promise<EmuResponse> {
  const ctx = req.ctx
  const stampHeader = header(req, 'service-wallet-signature')
  const requestId = header(req, 'request-id')
  const pending = requestId ? ctx.db.get<PendingRequest>(PENDING, requestId) : undefined
  if (pending?.processing && stampHeader !== undefined)
    return resend(ctx, req, structuredClone(pending), stampHeader, execute)

  const leg = stampHeader === undefined && requestId === undefined ? 1 : 2
  const op = await prepare(leg)
  if (leg === 1) return challenge(ctx, req, op)
  if (!requestId)
    throw unauthorized(
      'REQUEST_ID_MISSING',
      'The signed retry carries Service-Wallet-Signature but no Request-Id header; send the requestId from the 202 answer',
    )
  if (stampHeader === undefined)
    throw unauthorized(
      'WALLET_SIGNATURE_MISSING',
      'The retry carries Request-Id but no Service-Wallet-Signature header; stamp payloadToSign with an active session key',
    )
  // Re-read: `prepare` may have awaited, and a concurrent retry may have used the id meanwhile.
  const current = ctx.db.get<PendingRequest>(PENDING, requestId)
  if (!current)
    throw new HttpError(
      404,
      'REQUEST_NOT_FOUND',
      `Request ${requestId} was never issued by this sandbox; send the request without Request-Id to get a challenge`,
    )
  const p = structuredClone(current)
  if (p.processing) return resend(ctx, req, p, stampHeader, execute)
  if (p.method !== req.method || p.path !== req.path || p.operation !== op.operation) {
    throw unauthorized(
      'UNAUTHORIZED',
      `Request ${p.id} was issued for ${p.method} ${p.path}, not ${req.method} ${req.path}`,
    )
  }
  if (p.consumed)
    throw unauthorized(
      'UNAUTHORIZED',
      `Request ${p.id} was already used (a Request-Id is single use); send the request again without Request-Id for a new challenge`,
    )
  if (Date.parse(p.expiresAt) <= ctx.now()) {
    throw unauthorized(
      'UNAUTHORIZED',
      `The signed-retry challenge ${p.id} expired at ${p.expiresAt}; send the request again without Request-Id for a new challenge`,
    )
  }
  if (sha256Hex(req.rawBody) !== p.bodySha256) {
    throw unauthorized(
      'WALLET_SIGNATURE_BODY_MISMATCH',
      `The retry body differs from the body challenged by ${p.id}; resend the first request's body byte for byte`,
    )
  }
  checkStamp(ctx, stampHeader, p.payloadToSign, op.signer)

  if (takeProcessing(ctx)) {
    const operationId = newId('Operation')
    p.processing = {operationId, stamp: stampHeader, settled: false}
    if (!p.deliverOnResend) p.consumed = true
    ctx.db.put(PENDING, p.id, p)
    inflight.set(p.id, execute)
    ctx.scheduler.after(walletSettings(ctx).walletProcessingDelayMs, SETTLE_JOB, {requestId: p.id})
    return processingAnswer()
  }
  return runOnce(ctx, p, execute)
}

/** Marks the id used before running (no await in between), so two racing retries cannot both run; a refusal frees it again. */
async function runOnce(ctx: SandboxContext, p: PendingRequest, execute: Execute): Promise<EmuResponse> {
  ctx.db.put(PENDING, p.id, {...p, consumed: true, delivered: true})
  const result = await run(execute, p)
  if (result.status >= 400) ctx.db.put(PENDING, p.id, p)
  return result
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

/** A re-send of a PROCESSING request: the identical body and stamp, answered from the settled state. */
async function resend(
  ctx: SandboxContext,
  req: EmuRequest,
  p: PendingRequest,
  stampHeader: string,
  execute: Execute,
): Promise<EmuResponse> {
  const processing = p.processing!
  if (p.method !== req.method || p.path !== req.path)
    throw unauthorized(
      'UNAUTHORIZED',
      `Request ${p.id} was issued for ${p.method} ${p.path}, not ${req.method} ${req.path}`,
    )
  if (sha256Hex(req.rawBody) !== p.bodySha256)
    throw unauthorized(
      'WALLET_SIGNATURE_BODY_MISMATCH',
      `The re-send body differs from the body challenged by ${p.id}; re-send the identical request`,
    )
  if (stampHeader !== processing.stamp)
    throw unauthorized(
      'WALLET_SIGNATURE_INVALID',
      `Re-send the identical signed request for ${p.id}: same Service-Wallet-Signature (do not re-stamp)`,
    )
  if (p.delivered)
    throw unauthorized(
      'UNAUTHORIZED',
      `Request ${p.id} was already used (its answer was delivered); start the request again for a new challenge`,
    )
  if (!processing.settled) return processingAnswer()
  if (processing.result) {
    ctx.db.put(PENDING, p.id, {...p, delivered: true})
    return processing.result
  }
  // Export (or an operation whose in-process closure was lost to a restart): produce it now.
  if (p.deliverOnResend && Date.parse(p.expiresAt) <= ctx.now()) {
    throw unauthorized(
      'UNAUTHORIZED',
      `The signed-retry challenge ${p.id} expired at ${p.expiresAt}; start a fresh export`,
    )
  }
  return runOnce(ctx, p, execute)
}

/** Registers the settle job; called once per emulator. */
export function registerSettler(ctx: SandboxContext): void {
  ctx.scheduler.on(SETTLE_JOB, async (payload) => {
    await settle(ctx, String(payload.requestId))
  })
}

/**
 * Settles a still-processing request now instead of at its timer (POST
 * /sandbox/wallet-requests/{id}/settle): lets support and tests order events around the settle
 * point deterministically. The scheduled job later finds it settled and does nothing.
 */
export async function settleNow(ctx: SandboxContext, requestId: string): Promise<EmuResponse> {
  const stored = ctx.db.get<PendingRequest>(PENDING, requestId)
  if (!stored) throw new HttpError(404, 'REQUEST_NOT_FOUND', `Request ${requestId} was never issued by this sandbox`)
  if (!stored.processing)
    throw new HttpError(
      409,
      'REQUEST_NOT_PROCESSING',
      `Request ${requestId} is not a still-processing operation; only a PROCESSING retry can be settled`,
    )
  if (stored.processing.settled)
    throw new HttpError(409, 'REQUEST_NOT_PROCESSING', `Request ${requestId} has settled already`)
  await settle(ctx, requestId)
  const p = ctx.db.get<PendingRequest>(PENDING, requestId)!
  return {
    status: 200,
    body: {requestId, operationType: p.operation, settled: true, resultStatus: p.processing?.result?.status},
  }
}

async function settle(ctx: SandboxContext, requestId: string): Promise<void> {
  const stored = ctx.db.get<PendingRequest>(PENDING, requestId)
  if (!stored?.processing || stored.processing.settled) return
  const p = structuredClone(stored)
  const processing = p.processing!
  const execute = inflight.get(p.id)
  inflight.delete(p.id)
  if (!p.deliverOnResend && execute) processing.result = await run(execute, p)
  processing.settled = true
  ctx.db.put(PENDING, p.id, p)
  const failed = processing.result !== undefined && processing.result.status >= 400
  const code = failed ? (processing.result!.body as {code?: string} | undefined)?.code : undefined
  ctx.webhooks.emit('wallet_operation.completed', {
    operationId: processing.operationId,
    requestId: p.id,
    operationType: p.operation,
    resourceType: p.resourceType,
    resourceId: p.resourceId,
    status: failed ? 'failed' : 'completed',
    ...(failed ? {error: {code: code ?? 'INTERNAL_ERROR'}} : {}),
  })
}

async function run(execute: Execute, p: PendingRequest): Promise<EmuResponse> {
  try {
    return await execute(p)
  } catch (e) {
    if (e instanceof HttpError) return {status: e.status, body: e.body(), headers: e.headers}
    throw e
  }
}

function processingAnswer(): EmuResponse {
  return {
    status: 200,
    body: {status: 'PROCESSING', message: 'The wallet operation is settling; re-send the identical signed request'},
  }
}

/** The sandbox trigger (walletProcessingCount, counting down) or the random rate. */
function takeProcessing(ctx: SandboxContext): boolean {
  const s = walletSettings(ctx)
  if (s.walletProcessingCount > 0) {
    const config = ctx.config()
    ctx.saveConfig({...config, sandbox: {...s, walletProcessingCount: s.walletProcessingCount - 1}})
    return true
  }
  return s.walletProcessingRate > 0 && Math.random() < s.walletProcessingRate
}
