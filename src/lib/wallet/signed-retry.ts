// Client half: svc's engine that sends a signed wallet request and retries it. The sandbox's rule is emulator/domain/wallet/signed-retry.ts.
/**
 * The signed-retry engine (spec 5.3-5.6), used by every signed wallet endpoint:
 * leg 1 -> 202 {payloadToSign, requestId, expiresAt} -> stamp payloadToSign exactly as received ->
 * leg 2 with the byte-identical body + Service-Wallet-Signature + Request-Id -> 200 {status:
 * PROCESSING} is re-sent unchanged (same bytes, same stamp, same Request-Id) with backoff until a
 * terminal answer or the deadline. The stamp is never recomputed for a re-send.
 */
import type {ApiClient, ApiRequest, ApiResponse} from '../api/client.js'
import {ApiError, SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {explainWalletAuthError} from './signed-retry-errors.js'

export interface SignedChallenge {
  payloadToSign: string
  requestId: string
  expiresAt: string
  type?: string
}

/**
 * Spec 5.4 rule 3. `ok`: verify, challenge, export, PATCH internal account / customer, quote
 * execute: 200 is success unless the body is {status: PROCESSING}. `created`: add credential,
 * refresh, revoke credential or session: 201/204 succeed and any 200 means still processing.
 */
export type SuccessRule = 'ok' | 'created'

/** A request that needs a wallet signature (ApiRequest.walletSignature), with how the engine runs it. */
export interface SignedOperation extends ApiRequest {
  success: SuccessRule
  /** Human label for messages: "export of InternalAccount:...". */
  what: string
  /** The wallet acted on, when known: hints then name it instead of a placeholder. */
  accountId?: string
  /** Said on timeout: how to resume or where to look for the outcome. */
  resume: string
  /** Export (rule 4): a challenge that lapses while processing starts a fresh export. */
  restartOnLapse?: boolean
  /**
   * Challenges one run signs in a row (default 1). Delegated-key creation answers its first signed
   * retry with a second 202 challenge (three legs: 202 -> 202 -> 201), signed with the same key.
   */
  signedLegs?: number
}

/** Returns the Service-Wallet-Signature value for a challenge (the caller picks the key). */
export type ChallengeSigner = (challenge: SignedChallenge) => Promise<string> | string

export interface EngineDeps {
  client: Pick<ApiClient, 'request'>
  now: () => number
  sleep: (ms: number) => Promise<void>
  /** Epoch ms of --timeout. */
  deadline: number
  /** Progress notes for stderr (never secrets). */
  note?: (line: string) => void
  random?: () => number
}

export interface SignedResult<T = unknown> {
  status: number
  body: T
  /** Undefined when the service answered leg 1 without asking for a signature. */
  challenge?: SignedChallenge
  /** Leg-2 sends including re-sends of a still-processing operation. */
  sends: number
}

const MAX_FRESH_CHALLENGES = 3

export function isProcessingBody(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false
  const record = body as Record<string, unknown>
  // A Quote also has status PROCESSING; the WalletOperationProcessing shape is {status, message?} only.
  return record.status === 'PROCESSING' && Object.keys(record).every((k) => k === 'status' || k === 'message')
}

export function parseChallenge(body: unknown, what: string): SignedChallenge {
  const r = (body ?? {}) as Record<string, unknown>
  if (
    typeof r.payloadToSign !== 'string' ||
    typeof r.requestId !== 'string' ||
    typeof r.expiresAt !== 'string' ||
    Number.isNaN(Date.parse(r.expiresAt))
  ) {
    throw new SvcError({
      code: 'RESPONSE_INVALID',
      message: `The API answered 202 to the ${what} without a valid signed-retry challenge (payloadToSign, requestId, expiresAt)`,
      exitCode: ExitCode.FAILED,
    })
  }
  return {
    payloadToSign: r.payloadToSign,
    requestId: r.requestId,
    expiresAt: r.expiresAt,
    ...(typeof r.type === 'string' ? {type: r.type} : {}),
  }
}

function isTerminal(res: ApiResponse, rule: SuccessRule): boolean {
  if (rule === 'created') return res.status !== 200
  return !(res.status === 200 && isProcessingBody(res.body))
}

export class SignedRetryEngine {
  constructor(private readonly deps: EngineDeps) {}

  async run<T = unknown>(op: SignedOperation, sign: ChallengeSigner): Promise<SignedResult<T>> {
    let sends = 0
    for (let fresh = 0; ; fresh++) {
      const first = await this.send(op, undefined, op.what).catch((error: unknown) => {
        throw error instanceof ApiError ? explainWalletAuthError(error, op.what, op.accountId) : error
      })
      if (first.status !== 202) {
        // Rule 5 (EMAIL_OTP challenge) and unsigned answers: a still-processing first leg is re-requested.
        if (isTerminal(first, 'ok')) return {status: first.status, body: first.body as T, sends}
        return this.untilTerminal<T>(op, undefined, first, sends)
      }
      let challenge = parseChallenge(first.body, op.what)
      const sentBody = first.sentBody
      let expiresAt = Date.parse(challenge.expiresAt)
      if (expiresAt <= this.deps.now()) {
        if (fresh + 1 >= MAX_FRESH_CHALLENGES)
          throw lapsed(op, 'every challenge the service issued had expired on arrival')
        this.deps.note?.(`The ${op.what} challenge expired before it could be signed; asking for a fresh one.`)
        continue
      }
      const signedHeaders = async (c: SignedChallenge) => ({
        ...op,
        headers: {
          ...op.headers,
          'service-wallet-signature': await sign(c),
          'request-id': c.requestId,
          ...(sentBody !== undefined ? {'content-type': 'application/json'} : {}),
        },
      })
      let leg2 = await signedHeaders(challenge)
      let signed = 1
      for (let attempt = 0; ; attempt++) {
        if (this.deps.now() >= expiresAt) {
          if (op.restartOnLapse && fresh + 1 < MAX_FRESH_CHALLENGES) {
            this.deps.note?.(
              `The ${op.what} challenge lapsed while the service was still processing; starting a fresh one.`,
            )
            break
          }
          throw lapsed(op, 'the challenge expired while the service was still processing')
        }
        let res: ApiResponse
        try {
          res = await this.send(leg2, sentBody, op.what)
          sends++
        } catch (error) {
          sends++
          // A 401 after the challenge lapsed is the lapse itself (rule 4: a fresh export).
          if (
            error instanceof ApiError &&
            error.status === 401 &&
            this.deps.now() >= expiresAt &&
            op.restartOnLapse &&
            fresh + 1 < MAX_FRESH_CHALLENGES
          )
            break
          throw error instanceof ApiError ? explainWalletAuthError(error, op.what, op.accountId) : error
        }
        if (res.status === 202 && signed < (op.signedLegs ?? 1)) {
          // The next leg's challenge: signed like the first, same body, its own Request-Id.
          challenge = parseChallenge(res.body, op.what)
          expiresAt = Date.parse(challenge.expiresAt)
          leg2 = await signedHeaders(challenge)
          signed++
          attempt = -1
          continue
        }
        if (isTerminal(res, op.success)) return {status: res.status, body: res.body as T, challenge, sends}
        await this.waitProcessing(op, attempt, challenge)
      }
    }
  }

  /** Unsigned request whose first answer was still-processing: re-request until terminal. */
  private async untilTerminal<T>(
    op: SignedOperation,
    sentBody: string | undefined,
    first: ApiResponse,
    sends: number,
  ): Promise<SignedResult<T>> {
    let res = first
    for (let attempt = 0; !isTerminal(res, 'ok'); attempt++) {
      await this.waitProcessing(op, attempt)
      res = await this.send(op, sentBody, op.what)
      sends++
    }
    return {status: res.status, body: res.body as T, sends}
  }

  private async waitProcessing(op: SignedOperation, attempt: number, challenge?: SignedChallenge): Promise<void> {
    const left = this.deps.deadline - this.deps.now()
    if (left <= 0) {
      throw new SvcError({
        code: 'WALLET_OPERATION_PROCESSING',
        message: `The ${op.what} is still processing at --timeout${challenge ? ` (Request-Id ${challenge.requestId})` : ''}`,
        exitCode: ExitCode.PENDING,
        hint: op.resume,
      })
    }
    if (attempt === 0)
      this.deps.note?.(
        `The service is still processing the ${op.what}; re-sending the same signed request until it settles.`,
      )
    const base = Math.min(250 * 2 ** attempt, 5000)
    const jitter = (this.deps.random ?? Math.random)()
    await this.deps.sleep(Math.min(left, Math.round(base / 2 + (jitter * base) / 2)))
  }

  /** One HTTP exchange; 429 waits Retry-After (within the deadline) and sends the same bytes again. */
  private async send(op: SignedOperation, rawBody: string | undefined, what: string): Promise<ApiResponse> {
    for (;;) {
      try {
        // The description as it is (idempotency included); a re-send carries the first leg's exact bytes.
        return await this.deps.client.request(
          rawBody === undefined ? op : {...op, rawBody: Buffer.from(rawBody, 'utf8')},
        )
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 429 || error.code === 'DAILY_VOLUME_LIMIT_EXCEEDED')
          throw error
        const wait = error.retryAfterMs ?? 1000
        if (this.deps.now() + wait > this.deps.deadline) {
          throw new SvcError({
            code: error.code,
            status: 429,
            message: `The ${what} is rate limited and Retry-After (${Math.ceil(wait / 1000)} s) goes past --timeout`,
            exitCode: ExitCode.RATE_LIMITED,
            hint: 'Wait and run the command again, or raise --timeout.',
          })
        }
        this.deps.note?.(
          `Rate limited; waiting ${Math.ceil(wait / 1000)} s (Retry-After) before sending the ${what} again.`,
        )
        await this.deps.sleep(wait)
      }
    }
  }
}

function lapsed(op: SignedOperation, why: string): SvcError {
  return new SvcError({
    code: 'SIGNED_CHALLENGE_EXPIRED',
    message: `The ${op.what} did not complete: ${why}`,
    exitCode: ExitCode.PENDING,
    hint: `The service reconciles a still-processing operation itself. ${op.resume}`,
  })
}
