// The PROCESSING branch of the sandbox's signed retry: an operation that settles later, by timer or on demand.
import type {SandboxContext} from '../../context.js'
import {HttpError} from '../../http-error.js'
import {newId} from '../../ids.js'
import type {EmuResponse} from '../../router.js'
import {PENDING, type Execute, type PendingRequest} from './signed-retry-challenge.js'
import {walletSettings} from './state.js'

const SETTLE_JOB = 'wallet.settle'

/**
 * Closures of operations still settling, per open store (a restart, or a team sandbox closed while
 * idle and opened again, starts with none), by request id. The settle job is durable; a closure is
 * not: a job that finds none fails the operation honestly instead of reporting one that never ran.
 */
const inflight = new WeakMap<object, Map<string, Execute>>()

function closures(ctx: SandboxContext): Map<string, Execute> {
  let byId = inflight.get(ctx.db)
  if (!byId) inflight.set(ctx.db, (byId = new Map()))
  return byId
}

/** The answer of an operation whose closure did not survive a restart: it did not run. */
function interrupted(p: PendingRequest): EmuResponse {
  // 500 INTERNAL_ERROR: the contract's one failure of a signed operation that is the sandbox's own doing.
  const e = new HttpError(
    500,
    'INTERNAL_ERROR',
    `The sandbox restarted while ${p.operation} (${p.id}) was settling, so it did not run; send the request again without Request-Id for a new challenge`,
  )
  return {status: e.status, body: e.body()}
}

/**
 * When the sandbox says so (see takeProcessing), starts `execute` settling in the background and
 * answers PROCESSING; undefined when the operation should run now.
 */
export function deferToSettle(
  ctx: SandboxContext,
  p: PendingRequest,
  stamp: string,
  execute: Execute,
): EmuResponse | undefined {
  if (!takeProcessing(ctx)) return undefined
  const operationId = newId('Operation')
  p.processing = {operationId, stamp, settled: false}
  if (!p.deliverOnResend) p.consumed = true
  ctx.db.put(PENDING, p.id, p)
  closures(ctx).set(p.id, execute)
  ctx.scheduler.after(walletSettings(ctx).walletProcessingDelayMs, SETTLE_JOB, {requestId: p.id})
  return processingAnswer()
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
  const execute = closures(ctx).get(p.id)
  closures(ctx).delete(p.id)
  if (!p.deliverOnResend) processing.result = execute ? await run(execute, p) : interrupted(p)
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

/** The operation's answer; an HttpError it throws becomes its error answer. */
export async function run(execute: Execute, p: PendingRequest): Promise<EmuResponse> {
  try {
    return await execute(p)
  } catch (e) {
    if (e instanceof HttpError) return {status: e.status, body: e.body(), headers: e.headers}
    throw e
  }
}

export function processingAnswer(): EmuResponse {
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
