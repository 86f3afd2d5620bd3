/**
 * The authorization table: who may call each operation, one small file per area under table/,
 * assembled here in one list. The order decides nothing: enforce.ts matches the most specific entry.
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
  MANAGE,
  READ,
  TRANSACT,
  type AgentPermission,
  type AuthzEntry,
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
