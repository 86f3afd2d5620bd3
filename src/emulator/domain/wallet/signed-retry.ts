// Sandbox half: how the local Service checks and answers a signed retry. svc's client engine is lib/wallet/signed-retry.ts.
import type {SandboxContext} from '../../context.js'
import {HttpError} from '../../http-error.js'
import type {EmuRequest, EmuResponse} from '../../router.js'
import {
  PENDING,
  challenge,
  sha256Hex,
  type Execute,
  type PendingRequest,
  type SignedOperation,
} from './signed-retry-challenge.js'
import {deferToSettle, processingAnswer, run} from './signed-retry-settle.js'
import {checkStamp} from './stamps.js'

/**
 * The signed-retry pattern (spec 5.3/5.4) for every endpoint that needs a wallet signature:
 * leg 1 answers 202 with a `payloadToSign` bound to the exact request (operation, method, path,
 * resource, request id, SHA-256 of the raw body, expiry); leg 2 repeats the request byte for byte
 * with a stamp over it and the `Request-Id`. Leg 2 may answer 200 {status: PROCESSING}; re-sending
 * the identical signed request then yields the terminal answer once the operation settles.
 */

const header = (req: EmuRequest, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const unauthorized = (code: string, reason: string) => new HttpError(401, code, reason)

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

  return deferToSettle(ctx, p, stampHeader, execute) ?? runOnce(ctx, p, execute)
}

/** Marks the id used before running (no await in between), so two racing retries cannot both run; a refusal frees it again. */
async function runOnce(ctx: SandboxContext, p: PendingRequest, execute: Execute): Promise<EmuResponse> {
  ctx.db.put(PENDING, p.id, {...p, consumed: true, delivered: true})
  const result = await run(execute, p)
  if (result.status >= 400) ctx.db.put(PENDING, p.id, p)
  return result
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
  // Export: nothing was stored at settle time, so the re-send produces the answer now.
  if (p.deliverOnResend && Date.parse(p.expiresAt) <= ctx.now()) {
    throw unauthorized(
      'UNAUTHORIZED',
      `The signed-retry challenge ${p.id} expired at ${p.expiresAt}; start a fresh export`,
    )
  }
  return runOnce(ctx, p, execute)
}
