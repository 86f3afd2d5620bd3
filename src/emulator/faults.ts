import type {IncomingMessage} from 'node:http'
import {NO_FAULTS, type FaultSettings} from '../lib/schemas/faults.js'
import type {SandboxContext} from './context.js'
import {HttpError} from './http-error.js'

/**
 * Fault injection (`svc sandbox serve --faults`, PATCH /config {sandbox: {faults}}): decided per
 * request before routing. 503, 429 and reset strike before the request is handled, so they never
 * change state; lostReply and slowReply strike after it committed (the answer is dropped, or comes
 * late), which is the fault that matters for money. The sandbox's own controls (/config,
 * /sandbox/...) are never faulted: they are how a test turns faults off and sets up state.
 */
const EXEMPT = /^\/(config$|sandbox\/)/

interface FaultState {
  /** The settings the PRNG was seeded for; a new PATCH restarts the sequence. */
  key: string
  next: () => number
  counts: FaultCounts
}

export interface FaultCounts {
  rate5xx: number
  rate429: number
  reset: number
  delayed: number
  lostReply: number
  slowReply: number
  /** The faulted requests, oldest first ("503 POST /quotes"), the last 1,000. */
  faulted: string[]
}

/** By instance (its database), since a context is made per request. */
const states = new WeakMap<object, FaultState>()

/**
 * What happens to a request's answer once it has been handled: `lost` (the connection is dropped
 * instead), or `delayMs` before it is sent.
 */
export type AfterCommit = {lost: true} | {delayMs: number}

/**
 * Applies the configured faults to one request: waits the latency, then throws a 503 or 429
 * HttpError (with Retry-After), or resets the connection and returns 'reset' (nothing is to be
 * sent), or returns what to do with the answer after the request is handled (lostReply, slowReply).
 */
export async function injectFault(
  ctx: SandboxContext,
  path: string,
  req: IncomingMessage,
): Promise<'reset' | AfterCommit | undefined> {
  const faults = ctx.settings().faults ?? NO_FAULTS
  if (
    !faults.rate5xx &&
    !faults.rate429 &&
    !faults.reset &&
    !faults.latencyMs &&
    !faults.lostReply &&
    !faults.slowReplyMs
  ) {
    states.delete(ctx.db) // turned off: the next faults start their sequence (and counts) afresh
    return undefined
  }
  if (EXEMPT.test(path)) return undefined
  const state = stateFor(ctx, faults)
  if (faults.latencyMs) {
    state.counts.delayed++
    await new Promise((r) => setTimeout(r, faults.latencyMs))
  }
  // One draw per request, split into bands, so the rates are exact and independent of each other.
  const x = state.next()
  const retryAfter = {'retry-after': String(faults.retryAfterSeconds)}
  if (x < faults.reset) {
    state.counts.reset++
    note(ctx, state, `reset ${req.method} ${path}`)
    req.socket.destroy()
    return 'reset'
  }
  if (x < faults.reset + faults.rate5xx) {
    state.counts.rate5xx++
    note(ctx, state, `503 ${req.method} ${path}`)
    throw new HttpError(
      503,
      'SERVICE_UNAVAILABLE',
      'Injected fault: the service is temporarily unavailable; nothing was done',
      undefined,
      retryAfter,
    )
  }
  if (x < faults.reset + faults.rate5xx + faults.rate429) {
    state.counts.rate429++
    note(ctx, state, `429 ${req.method} ${path}`)
    throw new HttpError(
      429,
      'RATE_LIMITED',
      `Injected fault: too many requests; retry after ${faults.retryAfterSeconds} s`,
      {retryAfterSeconds: faults.retryAfterSeconds},
      retryAfter,
    )
  }
  // After the bands that refuse come the ones that handle the request first (new bands go last, so
  // a seed gives the same refusals it always did).
  // A lost reply strikes writes only: a read commits nothing, and a read that loses its answer is a reset.
  let band = faults.reset + faults.rate5xx + faults.rate429
  const write = req.method !== 'GET' && req.method !== 'HEAD'
  if (x < (band += faults.lostReply ?? 0) && write) {
    state.counts.lostReply++
    note(ctx, state, `lostReply ${req.method} ${path}`)
    return {lost: true}
  }
  if (faults.slowReplyMs && x < band + (faults.slowReplyRate ?? 1)) {
    state.counts.slowReply++
    note(ctx, state, `slowReply ${req.method} ${path}`)
    return {delayMs: faults.slowReplyMs}
  }
  return undefined
}

/** How many faults were injected since the settings last changed (tests, the log). */
export function faultCounts(ctx: SandboxContext): FaultCounts {
  const counts = states.get(ctx.db)?.counts
  return counts
    ? {...counts, faulted: [...counts.faulted]}
    : {rate5xx: 0, rate429: 0, reset: 0, delayed: 0, lostReply: 0, slowReply: 0, faulted: []}
}

function note(ctx: SandboxContext, state: FaultState, what: string): void {
  state.counts.faulted.push(what)
  if (state.counts.faulted.length > 1000) state.counts.faulted.shift()
  ctx.log(`fault: ${what}`)
}

function stateFor(ctx: SandboxContext, faults: FaultSettings): FaultState {
  const key = JSON.stringify(faults)
  let state = states.get(ctx.db)
  if (!state || state.key !== key) {
    const seed = faults.seed ?? (Math.random() * 2 ** 32) >>> 0
    state = {
      key,
      next: mulberry32(seed),
      counts: {rate5xx: 0, rate429: 0, reset: 0, delayed: 0, lostReply: 0, slowReply: 0, faulted: []},
    }
    states.set(ctx.db, state)
  }
  return state
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
