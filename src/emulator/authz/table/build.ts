// The operation table's vocabulary: the entry types, the permission sets, the body caps, and `op`/`own` to write an entry.
import type {AGENT_PERMISSIONS} from '../../../lib/schemas/agents.js'
import type {Permission} from '../../principal.js'

export type AgentPermission = (typeof AGENT_PERMISSIONS)[number]

/**
 * Who may call an operation. One kind per operation: the contract gives every operation exactly one
 * security scheme (HTTP Basic for the platform, Bearer for agents, none for device-code redemption).
 * - platform: an API token holding at least one of `anyOf`.
 * - agent: an agent's Bearer token; `needs` is the policy permission the operation's text names
 *   (none: any agent of the customer, even a paused one, since it only reads its own state).
 * - public: no credentials (hosted pages a browser opens; the code or token in the path is the credential).
 */
export type Who =
  {kind: 'platform'; anyOf: readonly Permission[]} | {kind: 'agent'; needs?: AgentPermission} | {kind: 'public'}

/**
 * What an operation's body decides beyond `who`, checked by authz/agent-grants.ts once the body is
 * known (the domain calls it), so that no chain of allowed steps moves money its caller could not:
 * - grant (platform): the call lets an agent move a customer's money (a new money-moving agent, a
 *   widened policy, a device code for such an agent); the caller must also hold one of these.
 * - spends (agent): the call moves the customer's money; the agent's grant must still be alive.
 * - sameCurrency (agent): a quote whose sending and receiving currencies are the same is a
 *   same-currency transfer, so it also needs this policy permission.
 */
export interface Delegation {
  grant?: readonly Permission[]
  spends?: true
  sameCurrency?: AgentPermission
}

/**
 * Where a wallet session's stamp (`Service-Wallet-Signature`) is also demanded. The signed-retry code
 * enforces it; the table records it so the whole answer to "who may call this" is in one place.
 * - signed-retry: always, on the retry of a two-step signed operation.
 * - wallet-source: when the quote's source is an EMBEDDED_WALLET internal account.
 * - wallet-contact: when the changed email/phone is a wallet credential's.
 */
export type WalletSignature = 'signed-retry' | 'wallet-source' | 'wallet-contact'

/**
 * Idempotency-Key handling the server applies around the handler: the same key with the same body
 * replays the first successful answer (idempotency.ts). `scope` names what the key is for,
 * with `{param}` replaced by the path's value (a key executes one quote, not every quote).
 * `required`: the contract demands the header (the stablecoin POSTs that create something).
 */
export interface Idempotency {
  scope: string
  required?: true
}

/** Documents are at most 10 MB (spec); a multipart envelope adds a little. Operations that take uploads declare it. */
export const UPLOAD_MAX_BODY = 12 * 1024 * 1024
/** Every other API request body: JSON far larger than any the contract describes. */
export const DEFAULT_MAX_BODY = 1024 * 1024
/** Operations anyone may call without credentials (hosted pages, device-code redemption) read at most this much. */
export const PUBLIC_MAX_BODY = 64 * 1024

/**
 * One operation of the sandbox: what it is (method, path, operationId), who may call it, and how the
 * server runs it. Its handler is bound to it by key (routes/*.ts, `Router.handle`); nothing else routes.
 */
export interface AuthzEntry {
  method: string
  /** OpenAPI path template (`/customers/{customerId}`), under the API version prefix. */
  path: string
  /** The contract's operationId; undefined for the sandbox's own routes. */
  operationId?: string
  who: Who
  walletSignature?: WalletSignature
  delegation?: Delegation
  /** Why, where the contract does not say it in the operation's own text. */
  note?: string
  idempotency?: Idempotency
  /** The largest body the operation reads (default DEFAULT_MAX_BODY; PUBLIC_MAX_BODY for public callers). */
  maxBody?: number
  /**
   * false: the handler runs outside a database unit, for one that writes nothing and waits on the
   * network (a webhook test delivery) or commits step by step (a clock advance), so it cannot hold up
   * every other request.
   */
  unit?: false
}

/** An operation's table entry: the one declaration (the name the rest of the sandbox uses). */
export type Operation = AuthzEntry

/** The key a handler is bound by: the operationId, or `METHOD /path` for the sandbox's own routes. */
export const keyOf = (e: AuthzEntry): string => e.operationId ?? `${e.method} ${e.path}`

/**
 * Reads: every permission includes viewing. VIEW is "view all data"; a token that may send payments
 * (TRANSACT) or manage customers (MANAGE) must see the quotes, rates, accounts and customers it acts
 * on, so neither is blind without VIEW. VIEW alone only reads.
 */
export const READ: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE']
/** "TRANSACT: Can send payments": quotes, transfers, payment decisions, and the sandbox's money simulators. */
export const TRANSACT: readonly Permission[] = ['TRANSACT']
/** "MANAGE: Can manage platform config, api tokens and customers" (and what belongs to a customer). */
export const MANAGE: readonly Permission[] = ['MANAGE']
/**
 * Session operations (SCA login, security events, wallet credential verification, session refresh
 * and revocation): each opens, ends or counts towards locking the customer's access, which is
 * managing the customer. One rule, MANAGE, so a payments-only token cannot lock a customer out
 * (five failed proofs lock it for 15 minutes); a TRANSACT token pays within the session the
 * customer's front end (MANAGE) opened.
 */
export const SESSION: readonly Permission[] = ['MANAGE']

const platform = (anyOf: readonly Permission[]): Who => ({kind: 'platform', anyOf})
export const agent = (needs?: AgentPermission): Who => ({kind: 'agent', ...(needs ? {needs} : {})})
export const PUBLIC: Who = {kind: 'public'}

type Extra = Pick<AuthzEntry, 'walletSignature' | 'delegation' | 'note' | 'idempotency' | 'maxBody' | 'unit'>
export const op = (
  method: string,
  path: string,
  operationId: string,
  who: Who | readonly Permission[],
  extra: Extra = {},
): AuthzEntry => ({method, path, operationId, who: Array.isArray(who) ? platform(who) : (who as Who), ...extra})
export const own = (
  method: string,
  path: string,
  who: Who | readonly Permission[],
  note: string,
  extra: Omit<Extra, 'note'> = {},
): AuthzEntry => ({method, path, who: Array.isArray(who) ? platform(who) : (who as Who), note, ...extra})
