import type {SvcError} from '../errors.js'
import type {NetworkOptions} from './dispatcher.js'
import type {Secret} from '../secret.js'
import type {ApiRequest} from './request.js'

export interface ClientOptions {
  baseUrl: string
  tokenId?: string
  secret?: Secret
  /** An agent's access token (HTTP Bearer, /agents/me routes) used instead of Basic credentials. */
  bearer?: Secret
  /** Per-request timeout in ms. */
  timeoutMs: number
  userAgent: string
  /** Debug sink; every line written here is already redacted. */
  trace?: (line: string) => void
  /** One stderr line per retry (on a terminal, or with --debug): `429 Too Many Requests; retrying in 1s (2/3)`. */
  notice?: (line: string) => void
  /** Warnings for the user (stderr), e.g. an unexpected answer shape after a change was made. */
  warn?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  maxRetries?: number
  /** Epoch ms of the command's --timeout: no retry starts (and no request waits) past it. */
  deadline?: number
  now?: () => number
  /** Called once when the first request finds nobody listening (lets the CLI explain local-sandbox start). */
  onConnectionRefused?: (error: Error) => SvcError | undefined
  /** An undici dispatcher to use instead of the client's own keep-alive Agent (tests: MockAgent). */
  dispatcher?: import('undici').Dispatcher
  /** Proxies (the environment's) and a CA to trust (--ca-file ...): see dispatcher.ts. */
  network?: NetworkOptions
  /** --idempotency-key: the key pinned by the operator (default: a fresh UUID per command). */
  idempotencyKey?: string
  /** Digests of the only writes this run may send (a plan confirmed through `svc mcp`; see planned.ts). */
  planned?: string[]
}

/** A request as the transport takes it: the description, plus what only a sender has. */
export interface RequestOptions extends ApiRequest {
  /** Bytes sent as they are (a signed retry resends the first leg's bytes); content-type must be given in headers. */
  rawBody?: Uint8Array
  /** A literal key from a scenario file; commands use `idempotency` and the command's key. */
  idempotencyKey?: string
}
