/**
 * The operation table: one declaration per operation of the sandbox (method, path, operationId, who
 * may call it, idempotency scope, body cap, unit), one small file per area under table/, assembled
 * here in one list. The router routes only what it names, and the server applies authorization,
 * idempotency and limits from the entry. The order decides nothing: the most specific entry matches.
 */
import {PLATFORM} from './table/platform.js'
import {CUSTOMERS} from './table/customers.js'
import {SCA} from './table/sca.js'
import {ACCOUNTS} from './table/accounts.js'
import {PAYMENTS} from './table/payments.js'
import {INVITATIONS} from './table/invitations.js'
import {TOKENS} from './table/tokens.js'
import {WALLET_AUTH} from './table/wallet-auth.js'
import {AGENT_MANAGEMENT} from './table/agents.js'
import {AGENT_OPERATIONS} from './table/agents-me.js'
import {CARDS} from './table/cards.js'
import {STABLECOINS} from './table/stablecoins.js'
import {SANDBOX_SIMULATORS} from './table/sandbox.js'
import {SANDBOX_OWN} from './table/sandbox-own.js'
import type {AuthzEntry} from './table/build.js'

export {
  DEFAULT_MAX_BODY,
  MANAGE,
  PUBLIC_MAX_BODY,
  READ,
  TRANSACT,
  UPLOAD_MAX_BODY,
  keyOf,
  type AgentPermission,
  type AuthzEntry,
  type Idempotency,
  type Operation,
  type WalletSignature,
  type Who,
} from './table/build.js'

/** Every operation of the contract (153) and every route of the sandbox's own, with who may call it. */
export const AUTHZ_TABLE: readonly AuthzEntry[] = [
  ...PLATFORM,
  ...CUSTOMERS,
  ...SCA,
  ...ACCOUNTS,
  ...PAYMENTS,
  ...INVITATIONS,
  ...TOKENS,
  ...WALLET_AUTH,
  ...AGENT_MANAGEMENT,
  ...AGENT_OPERATIONS,
  ...CARDS,
  ...STABLECOINS,
  ...SANDBOX_SIMULATORS,
  ...SANDBOX_OWN,
]
