import * as z from 'zod'

/**
 * Fault injection for the local sandbox (clients' CI tests their retries against it). The spec
 * string `rate5xx=0.1,rate429=0.05,latency=200ms,reset=0.01,lostReply=0.1,slowReply=40s,retryAfter=1` is what
 * `svc sandbox serve --faults` takes; PATCH /config {sandbox: {faults}} takes the string or the object.
 */
export const faultSettings = z.strictObject({
  /** Probability (0..1) that a request is answered 503 SERVICE_UNAVAILABLE before it is handled. */
  rate5xx: z.number().min(0).max(1).default(0),
  /** Probability (0..1) of 429 RATE_LIMITED with Retry-After. */
  rate429: z.number().min(0).max(1).default(0),
  /** Probability (0..1) that the connection is reset with no answer. */
  reset: z.number().min(0).max(1).default(0),
  /** Added to every faultable request, in ms. */
  latencyMs: z.number().int().min(0).max(60_000).default(0),
  /**
   * Probability (0..1) that a request is handled and committed, then its connection dropped with no
   * answer: the lost reply after the commit, which a client can only settle with its Idempotency-Key.
   */
  lostReply: z.number().min(0).max(1).default(0),
  /** Delay (ms) before the answer of a handled, committed request: longer than the client's timeout, it times out after the commit. */
  slowReplyMs: z.number().int().min(0).max(600_000).default(0),
  /** Probability (0..1) that a request gets the slowReplyMs delay (default: every request, once slowReply is set). */
  slowReplyRate: z.number().min(0).max(1).default(1),
  /** Retry-After of injected 429s and 503s, in whole seconds. */
  retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
  /** Seed of the fault PRNG: the same seed and the same request sequence give the same faults. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
})
export type FaultSettings = z.infer<typeof faultSettings>

export const NO_FAULTS: FaultSettings = {
  rate5xx: 0,
  rate429: 0,
  reset: 0,
  latencyMs: 0,
  lostReply: 0,
  slowReplyMs: 0,
  slowReplyRate: 1,
  retryAfterSeconds: 1,
}

const KEYS: Record<string, keyof FaultSettings> = {
  rate5xx: 'rate5xx',
  rate503: 'rate5xx',
  rate429: 'rate429',
  reset: 'reset',
  latency: 'latencyMs',
  latencyms: 'latencyMs',
  lostreply: 'lostReply',
  slowreply: 'slowReplyMs',
  slowreplyms: 'slowReplyMs',
  slowreplyrate: 'slowReplyRate',
  retryafter: 'retryAfterSeconds',
  retryafterseconds: 'retryAfterSeconds',
  seed: 'seed',
}

/**
 * The spec string as the object form, without judging it: known keys get their canonical name,
 * numbers (and `200ms`, `2s` for latency and slowReply) become numbers, and anything else is kept as written so
 * that the schema names every bad part (an unknown key, a value that is not a number).
 */
export function faultSpecToObject(spec: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const i = part.indexOf('=')
    const rawKey = (i < 0 ? part : part.slice(0, i)).trim()
    const text = i < 0 ? '' : part.slice(i + 1).trim()
    const key = KEYS[rawKey.toLowerCase()] ?? rawKey
    const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text)
    if (!m) out[key] = text
    else if (m[2] === 's' && key.endsWith('Ms')) out[key] = Number(m[1]) * 1000
    else if (m[2] === 'ms' && !key.endsWith('Ms')) out[key] = text
    else out[key] = Number(m[1])
  }
  return out
}

/** What PATCH /config accepts for `sandbox.faults`: the spec string or the object; null turns faults off. */
export const faultSettingsPatch = z.preprocess(
  (v) => (typeof v === 'string' ? faultSpecToObject(v) : v === null ? NO_FAULTS : v),
  faultSettings,
)
