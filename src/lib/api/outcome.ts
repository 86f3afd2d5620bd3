import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'

/**
 * Failures that happen before a byte of the request leaves (nobody listening, no such host, the TLS
 * handshake or the proxy refused: undici's ProxyAgent says `Proxy response (403) !== 200 when HTTP Tunneling`): nothing can have been done. Anything else that breaks a write
 * (a connection dropped, a timeout waiting for the answer) may have come after the Service acted.
 */
const NOT_SENT =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|CERT|UNABLE_TO_|SELF_SIGNED|ERR_TLS|ERR_SSL|UND_ERR_PRX|Proxy response|HTTP Tunneling|PROXY_ERROR|TLS_ERROR/

/** Whether a failure below HTTP may have come after the request reached the Service (a refused tunnel or certificate never let it out). */
export function maybeSent(error: unknown): boolean {
  for (let e = error as {code?: unknown; message?: unknown; cause?: unknown} | undefined, i = 0; e && i < 4; i++) {
    if (NOT_SENT.test(`${String(e.code ?? '')} ${String(e.message ?? '')}`)) return false
    e = e.cause as typeof e
  }
  return true
}

/**
 * Answers that say a gateway lost track of the request (it may have reached the Service behind it).
 * 429 and 503 are refusals: a write that only ever got those was not done.
 */
export function gatewayLost(status: number): boolean {
  return status === 502 || status === 504
}

export interface UnknownWrite {
  method: string
  /** The path as sent (encoded), under the base URL. */
  path: string
  segments: string[]
  /** The Idempotency-Key sent (scoped: `<key>:execute`), or undefined for a write without one. */
  idempotencyKey?: string
  /** The command's own key, which `--idempotency-key` takes to send the same keys again. */
  commandKey?: string
  /** Why no answer came: "other side closed", "no answer within 30000 ms", "502 on the last retry". */
  cause: string
  /** What a read-back found, when it could not settle the question. */
  readBack?: string
  /** The request's own advice (customer create: how to check), for a write without a key. */
  hint?: string
}

/** The object a write is about, from its path: `/quotes/Quote:1/execute` -> quote Quote:1, `/cards` -> card. */
export function objectOf(segments: string[]): {type: string; id?: string} {
  const singular = (s: string) => s.replace(/ies$/, 'y').replace(/s$/, '')
  for (let i = segments.length - 1; i >= 0; i--) {
    if (/^[A-Z][A-Za-z]*:/.test(segments[i])) return {type: singular(segments[i - 1] ?? 'object'), id: segments[i]}
  }
  return {type: singular(segments.at(-1) ?? 'object')}
}

/**
 * A write that was sent and not answered: exit 10, OUTCOME_UNKNOWN. With a key, re-sending it with
 * the same key finishes it exactly once (the Service replays the first answer or does it now); the
 * base command turns the hint into the exact command line. Without a key, the hint says how to check.
 */
export function outcomeUnknown(w: UnknownWrite): SvcError {
  const object = objectOf(w.segments)
  const what = object.id ? `${object.type} ${object.id}` : `the ${object.type}`
  return new SvcError({
    code: 'OUTCOME_UNKNOWN',
    exitCode: ExitCode.OUTCOME_UNKNOWN,
    message: `${w.method} ${w.path} was sent but not answered (${w.cause}): it may have been carried out${w.readBack ? `; ${w.readBack}` : ''}`,
    details: {
      idempotencyKey: w.idempotencyKey ?? null,
      ...(w.commandKey ? {commandKey: w.commandKey} : {}),
      method: w.method,
      path: w.path,
      object,
      cause: w.cause,
      ...(w.readBack ? {readBack: w.readBack} : {}),
    },
    hint: w.idempotencyKey
      ? `Finish it exactly once by sending it again with the same key: re-run the command with --idempotency-key ${w.commandKey ?? w.idempotencyKey}. Never re-run it without the key.`
      : (w.hint ??
        `It carried no Idempotency-Key, so running it again may do it twice: check whether ${what} changed first (\`svc history\` shows what was sent).`),
  })
}

/** A write as `svc history` records it: what was sent, and how it ended. */
export interface SentWrite {
  method: string
  path: string
  idempotencyKey?: string
  requestId?: string
  status?: number
  outcome: 'ok' | 'failed' | 'unknown'
  objectId?: string
  errorCode?: string
  /**
   * What `svc history finish` re-sends: kept only for an unknown outcome with a key, a JSON body
   * without a secret field, and no wallet signature (a stamp cannot be replayed from a file).
   */
  resend?: {segments: string[]; query?: Record<string, unknown>; body?: unknown}
}
