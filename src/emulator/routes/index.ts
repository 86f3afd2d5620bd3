import type {Router} from '../router.js'
import {registerBeneficialOwners} from './beneficial-owners.js'
import {registerAuth} from './auth.js'
import {registerCustomers} from './customers.js'
import {registerDocuments} from './documents.js'
import {registerKyc} from './kyc.js'
import {registerPlatform} from './platform.js'
import {registerWallet} from './wallet.js'
import {registerAccounts} from './accounts.js'
import {registerExternalAccounts} from './external-accounts.js'
import {registerQuotes} from './quotes.js'
import {registerTransactions} from './transactions.js'
import {registerSandboxMoney} from './sandbox-money.js'
import {registerBulkImport} from './bulk-import.js'
import {registerReference} from './reference.js'
import {registerReceiver} from './receiver.js'
import {registerTokens} from './tokens.js'
import {registerInvitations} from './invitations.js'
import {registerStablecoins} from './stablecoins.js'
import {registerDelegatedKeys} from './delegated-keys.js'
import {registerSca} from './sca.js'
import {registerAgentMe} from './agents-me.js'
import {registerAgents} from './agents.js'
import {registerCards} from './cards.js'
import {registerClock} from './clock.js'
import {registerSandboxTrigger} from './sandbox-trigger.js'

/**
 * Every resource module binds its handlers to the operation table here (one line each). The order
 * decides nothing: the router matches the most specific template of authz/table/.
 */
export function registerRoutes(router: Router): void {
  registerAccounts(router)
  registerExternalAccounts(router)
  registerPlatform(router)
  registerBulkImport(router)
  registerCustomers(router)
  registerKyc(router)
  registerBeneficialOwners(router)
  registerDocuments(router)
  registerAuth(router)
  registerWallet(router)
  registerQuotes(router)
  registerTransactions(router)
  registerSandboxMoney(router)
  registerReference(router)
  registerReceiver(router)
  registerTokens(router)
  registerInvitations(router)
  registerStablecoins(router)
  registerDelegatedKeys(router)
  registerSca(router)
  registerAgentMe(router)
  registerAgents(router)
  registerCards(router)
  registerClock(router)
  registerSandboxTrigger(router)
}
