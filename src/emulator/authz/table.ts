import type {AGENT_PERMISSIONS} from '../../lib/schemas/agents.js'
import type {Permission} from '../principal.js'

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
 * Where a wallet session's stamp (`Service-Wallet-Signature`) is also demanded. The signed-retry code
 * enforces it; the table records it so the whole answer to "who may call this" is in one place.
 * - signed-retry: always, on the retry of a two-step signed operation.
 * - wallet-source: when the quote's source is an EMBEDDED_WALLET internal account.
 * - wallet-contact: when the changed email/phone is a wallet credential's.
 */
export type WalletSignature = 'signed-retry' | 'wallet-source' | 'wallet-contact'

export interface AuthzEntry {
  method: string
  /** OpenAPI path template (`/customers/{customerId}`), under the API version prefix. */
  path: string
  /** The contract's operationId; undefined for the sandbox's own routes. */
  operationId?: string
  who: Who
  walletSignature?: WalletSignature
  /** Why, where the contract does not say it in the operation's own text. */
  note?: string
}

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
/** Wallet login and session steps: a payment from an embedded wallet needs a session, so a TRANSACT token may open one; managing the customer's wallet access needs MANAGE. */
const SESSION: readonly Permission[] = ['TRANSACT', 'MANAGE']

const platform = (anyOf: readonly Permission[]): Who => ({kind: 'platform', anyOf})
const agent = (needs?: AgentPermission): Who => ({kind: 'agent', ...(needs ? {needs} : {})})
const PUBLIC: Who = {kind: 'public'}

type Extra = Pick<AuthzEntry, 'walletSignature' | 'note'>
const op = (
  method: string,
  path: string,
  operationId: string,
  who: Who | readonly Permission[],
  extra: Extra = {},
): AuthzEntry => ({method, path, operationId, who: Array.isArray(who) ? platform(who) : (who as Who), ...extra})
const own = (method: string, path: string, who: Who | readonly Permission[], note: string): AuthzEntry => ({
  method,
  path,
  who: Array.isArray(who) ? platform(who) : (who as Who),
  note,
})

const CARD_SIMULATORS = [
  'authorization',
  'clearing',
  'return',
  'balance_inquiry',
  'credit_authorization',
  'financial_authorization',
  'financial_credit_authorization',
  'authorization_advice',
  'credit_authorization_advice',
  'return_reversal',
]
const camel = (s: string) => s.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())

/** Every operation of the contract (153) and every route of the sandbox's own, with who may call it. */
export const AUTHZ_TABLE: readonly AuthzEntry[] = [
  // Platform configuration, reference data
  op('GET', '/config', 'getPlatformConfig', READ),
  op('PATCH', '/config', 'updatePlatformConfig', MANAGE, {
    note: 'Includes the sandbox settings (legacySignatures, faults, delays): they are platform config.',
  }),
  op('GET', '/exchange-rates', 'getExchangeRates', READ),
  op('GET', '/discoveries', 'getDiscoveries', READ),
  op('GET', '/uma-providers', 'getAvailableUmaProviders', READ),
  op('GET', '/vasps', 'listVasps', READ),

  // Customers, KYC/KYB, contact verification
  op('GET', '/customers', 'listCustomers', READ),
  op('POST', '/customers', 'createCustomer', MANAGE),
  op('GET', '/customers/{customerId}', 'getCustomerById', READ),
  op('PATCH', '/customers/{customerId}', 'updateCustomerById', MANAGE, {walletSignature: 'wallet-contact'}),
  op('DELETE', '/customers/{customerId}', 'deleteCustomerById', MANAGE),
  op('GET', '/customers/end-user-terms', 'getEndUserTerms', READ),
  op('POST', '/customers/{customerId}/kyc-link', 'createCustomerKycLink', MANAGE),
  op('POST', '/customers/{customerId}/verify-email', 'sendCustomerEmailVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-email/confirm', 'confirmCustomerEmailVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-phone', 'sendCustomerPhoneVerification', MANAGE),
  op('POST', '/customers/{customerId}/verify-phone/confirm', 'confirmCustomerPhoneVerification', MANAGE),
  op('POST', '/customers/bulk/csv', 'uploadCustomersCsv', MANAGE),
  op('GET', '/customers/bulk/jobs/{jobId}', 'getBulkCustomerImportJob', READ),
  op('GET', '/beneficial-owners', 'listBeneficialOwners', READ),
  op('POST', '/beneficial-owners', 'createBeneficialOwner', MANAGE),
  op('GET', '/beneficial-owners/{beneficialOwnerId}', 'getBeneficialOwner', READ),
  op('PATCH', '/beneficial-owners/{beneficialOwnerId}', 'updateBeneficialOwner', MANAGE),
  op('GET', '/documents', 'listDocuments', READ),
  op('POST', '/documents', 'uploadDocument', MANAGE),
  op('GET', '/documents/{documentId}', 'getDocument', READ),
  op('PUT', '/documents/{documentId}', 'replaceDocument', MANAGE),
  op('DELETE', '/documents/{documentId}', 'deleteDocument', MANAGE),
  op('GET', '/verifications', 'listVerifications', READ),
  op('POST', '/verifications', 'createVerification', MANAGE),
  op('GET', '/verifications/{verificationId}', 'getVerification', READ),

  // Strong customer authentication: enrolment is the customer's set-up (MANAGE); logging in and authorizing a payment serve a payment (TRANSACT).
  op('GET', '/sca/factors', 'listScaFactors', READ),
  op('POST', '/sca/factors', 'startScaFactorEnrollment', MANAGE),
  op('POST', '/sca/factors/confirm', 'confirmScaFactorEnrollment', MANAGE),
  op('DELETE', '/sca/factors/{credentialId}', 'deleteScaFactor', MANAGE),
  op('POST', '/sca/login/start', 'startScaLogin', SESSION, {
    note: 'A payment under SCA needs a session: TRANSACT may log in, as MANAGE may.',
  }),
  op('POST', '/sca/login/complete', 'completeScaLogin', SESSION, {note: 'As startScaLogin.'}),
  op('POST', '/sca/record-event', 'recordSecurityEvent', SESSION, {
    note: 'Feeds the risk engine with sign-ins and sensitive views: part of a session, as login is.',
  }),
  op('POST', '/sca/factors/reset', 'startTwoFactorReset', MANAGE),
  op('GET', '/sca/factors/reset/{resetId}', 'getTwoFactorResetStatus', READ),
  op('POST', '/sca/factors/reset/{resetId}/complete', 'completeTwoFactorReset', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/trust', 'startBeneficiaryTrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/trust/confirm', 'confirmBeneficiaryTrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/untrust', 'startBeneficiaryUntrust', MANAGE),
  op('POST', '/customers/external-accounts/{externalAccountId}/untrust/confirm', 'confirmBeneficiaryUntrust', MANAGE),

  // Accounts
  op('GET', '/customers/internal-accounts', 'listCustomerInternalAccounts', READ),
  own('GET', '/internal-account', READ, 'The sandbox serves listCustomerInternalAccounts here (service-api.md §4.3).'),
  op('GET', '/platform/internal-accounts', 'listPlatformInternalAccounts', READ),
  op('PATCH', '/internal-accounts/{id}', 'updateInternalAccount', MANAGE, {walletSignature: 'signed-retry'}),
  op('POST', '/internal-accounts/{id}/export', 'exportInternalAccount', MANAGE, {
    walletSignature: 'signed-retry',
    note: "Hands out the wallet credentials: the customer's, so MANAGE (and the wallet's own stamp).",
  }),
  op('GET', '/customers/external-accounts', 'listCustomerExternalAccounts', READ),
  op('POST', '/customers/external-accounts', 'createCustomerExternalAccount', MANAGE),
  op('GET', '/customers/external-accounts/{externalAccountId}', 'getCustomerExternalAccountById', READ),
  op('DELETE', '/customers/external-accounts/{externalAccountId}', 'deleteCustomerExternalAccountById', MANAGE),
  op(
    'POST',
    '/customers/external-accounts/{externalAccountId}/challenge',
    'createExternalAccountOwnershipChallenge',
    MANAGE,
  ),
  op('POST', '/customers/external-accounts/{externalAccountId}/verify', 'verifyExternalAccountOwnership', MANAGE),
  op('GET', '/platform/external-accounts', 'listPlatformExternalAccounts', READ),
  op('POST', '/platform/external-accounts', 'createPlatformExternalAccount', MANAGE),
  op('GET', '/platform/external-accounts/{externalAccountId}', 'getPlatformExternalAccountById', READ),
  op('DELETE', '/platform/external-accounts/{externalAccountId}', 'deletePlatformExternalAccountById', MANAGE),
  op(
    'POST',
    '/platform/external-accounts/{externalAccountId}/challenge',
    'createPlatformExternalAccountOwnershipChallenge',
    MANAGE,
  ),
  op(
    'POST',
    '/platform/external-accounts/{externalAccountId}/verify',
    'verifyPlatformExternalAccountOwnership',
    MANAGE,
  ),

  // Payments
  op('POST', '/transfer-in', 'createTransferIn', TRANSACT),
  op('POST', '/transfer-out', 'createTransferOut', TRANSACT),
  op('GET', '/receiver/uma/{receiverUmaAddress}', 'lookupUma', READ),
  op('GET', '/receiver/external-account/{accountId}', 'lookupExternalAccount', READ),
  op('GET', '/quotes/{quoteId}', 'getQuoteById', READ),
  op('POST', '/quotes', 'createQuote', TRANSACT, {walletSignature: 'wallet-source'}),
  op('POST', '/quotes/{quoteId}/execute', 'executeQuote', TRANSACT, {walletSignature: 'wallet-source'}),
  op('POST', '/quotes/{quoteId}/authorize', 'authorizeQuote', TRANSACT),
  op('POST', '/quotes/{quoteId}/authorize/resend', 'resendQuoteScaCode', TRANSACT),
  op('GET', '/transactions', 'listTransactions', READ),
  op('GET', '/transactions/{transactionId}', 'getTransactionById', READ),
  op('POST', '/transactions/{transactionId}/confirm', 'confirmReceiptDelivery', TRANSACT),
  op('POST', '/transactions/{transactionId}/approve', 'approvePendingPayment', TRANSACT, {
    note: 'Deciding a payment is sending (or refusing) it.',
  }),
  op('POST', '/transactions/{transactionId}/reject', 'rejectPendingPayment', TRANSACT),
  op('POST', '/transactions/{transactionId}/cancel', 'cancelTransaction', TRANSACT),
  op('POST', '/crypto/estimate-withdrawal-fee', 'estimateCryptoWithdrawalFee', READ, {
    note: 'A POST that changes nothing: an estimate is a read.',
  }),

  // Invitations: a customer's UMA invitations are the customer's affairs.
  op('POST', '/invitations', 'createInvitation', MANAGE),
  op('GET', '/invitations/{invitationCode}', 'getInvitation', READ),
  op('POST', '/invitations/{invitationCode}/claim', 'claimInvitation', MANAGE),
  op('POST', '/invitations/{invitationCode}/cancel', 'cancelInvitation', MANAGE),

  // API tokens
  op('GET', '/tokens', 'listTokens', READ, {note: 'Tokens are listed without secrets: "view all data".'}),
  op('POST', '/tokens', 'createToken', MANAGE),
  op('GET', '/tokens/{tokenId}', 'getTokenById', READ),
  op('DELETE', '/tokens/{tokenId}', 'deleteTokenById', MANAGE),

  // Embedded wallet auth: the customer's wallet access (MANAGE); logging in and keeping a session serve payments too.
  op('GET', '/auth/credentials', 'listAuthCredentials', READ),
  op('POST', '/auth/credentials', 'createAuthCredential', MANAGE, {
    walletSignature: 'signed-retry',
    note: 'The stamp is asked for an additional credential.',
  }),
  op('DELETE', '/auth/credentials/{id}', 'revokeAuthCredential', MANAGE, {walletSignature: 'signed-retry'}),
  op('POST', '/auth/credentials/{id}/verify', 'verifyAuthCredential', SESSION, {
    note: 'Wallet login: a session to sign a wallet payment with.',
  }),
  op('POST', '/auth/credentials/{id}/challenge', 'challengeAuthCredential', SESSION),
  op('GET', '/auth/sessions', 'listAuthSessions', READ),
  op('DELETE', '/auth/sessions/{id}', 'revokeAuthSession', SESSION, {walletSignature: 'signed-retry'}),
  op('POST', '/auth/sessions/{id}/refresh', 'refreshAuthSession', SESSION, {walletSignature: 'signed-retry'}),
  op('GET', '/auth/delegated-keys', 'listDelegatedKeys', READ),
  op('POST', '/auth/delegated-keys', 'createDelegatedKey', MANAGE, {walletSignature: 'signed-retry'}),
  op('GET', '/auth/delegated-keys/{id}', 'getDelegatedKeyById', READ),
  op('DELETE', '/auth/delegated-keys/{id}', 'revokeDelegatedKey', MANAGE),

  // Agent management (platform side)
  op('GET', '/agents', 'listAgents', READ),
  op('POST', '/agents', 'createAgent', MANAGE),
  op('GET', '/agents/approvals', 'listAgentApprovals', READ),
  op('GET', '/agents/{agentId}', 'getAgentById', READ),
  op('PATCH', '/agents/{agentId}', 'updateAgent', MANAGE),
  op('DELETE', '/agents/{agentId}', 'deleteAgent', MANAGE),
  op('PATCH', '/agents/{agentId}/policy', 'updateAgentPolicy', MANAGE),
  op('POST', '/agents/{agentId}/device-codes', 'regenerateAgentDeviceCode', MANAGE),
  op('POST', '/agents/{agentId}/actions/{actionId}/approve', 'approveAgentAction', TRANSACT, {
    note: "Approving an agent's action sends its payment.",
  }),
  op('POST', '/agents/{agentId}/actions/{actionId}/reject', 'rejectAgentAction', TRANSACT),
  op('GET', '/agents/device-codes/{code}/status', 'getAgentDeviceCodeStatus', READ),
  op('POST', '/agents/device-codes/{code}/redeem', 'redeemAgentDeviceCode', PUBLIC, {
    note: 'The contract gives it no security: the code is the credential.',
  }),

  // Agent operations (the agent's Bearer token; the permission each operation's text names)
  op('GET', '/agents/me', 'getAgentMe', agent()),
  op('GET', '/agents/me/transactions', 'agentListTransactions', agent('VIEW_TRANSACTIONS'), {
    note: 'VIEW_TRANSACTIONS: "can list and retrieve transactions".',
  }),
  op('GET', '/agents/me/transactions/{transactionId}', 'agentGetTransaction', agent('VIEW_TRANSACTIONS')),
  op('POST', '/agents/me/quotes', 'agentCreateQuote', agent('CREATE_QUOTES')),
  op('GET', '/agents/me/quotes/{quoteId}', 'agentGetQuote', agent()),
  op('POST', '/agents/me/quotes/{quoteId}/execute', 'agentExecuteQuote', agent('EXECUTE_QUOTES'), {
    walletSignature: 'wallet-source',
  }),
  op('GET', '/agents/me/actions', 'agentListActions', agent()),
  op('GET', '/agents/me/actions/{actionId}', 'agentGetAction', agent()),
  op('POST', '/agents/me/transfer-in', 'agentCreateTransferIn', agent('CREATE_TRANSFERS')),
  op('POST', '/agents/me/transfer-out', 'agentCreateTransferOut', agent('CREATE_TRANSFERS')),
  op('GET', '/agents/me/internal-accounts', 'agentListInternalAccounts', agent(), {
    note: 'The text names no permission: it is how an agent finds its source accounts.',
  }),
  op('GET', '/agents/me/external-accounts', 'agentListExternalAccounts', agent('MANAGE_EXTERNAL_ACCOUNTS')),
  op('POST', '/agents/me/external-accounts', 'agentCreateExternalAccount', agent('MANAGE_EXTERNAL_ACCOUNTS'), {
    note: "Its 403 is not in the contract's list for this operation; the permission is in its text (issue 21 R7).",
  }),
  op(
    'GET',
    '/agents/me/external-accounts/{externalAccountId}',
    'agentGetExternalAccount',
    agent('MANAGE_EXTERNAL_ACCOUNTS'),
  ),
  op(
    'DELETE',
    '/agents/me/external-accounts/{externalAccountId}',
    'agentDeleteExternalAccount',
    agent('MANAGE_EXTERNAL_ACCOUNTS'),
    {note: 'As agentCreateExternalAccount (issue 21 R7).'},
  ),

  // Cards
  op('GET', '/cards', 'listCards', READ),
  op('POST', '/cards', 'createCard', MANAGE, {note: 'Issuing a card to a customer is managing the customer.'}),
  op('GET', '/cards/{id}', 'getCardById', READ),
  op('PATCH', '/cards/{id}', 'updateCardById', MANAGE),
  op('POST', '/cards/{id}/reveal', 'revealCard', MANAGE, {
    note: 'A bearer URL to the full PAN and CVV: more than "view", so not for a read-only token.',
  }),
  ...CARD_SIMULATORS.map((kind) =>
    op('POST', `/sandbox/cards/{id}/simulate/${kind}`, `sandboxSimulateCard${camel(kind)}`, TRANSACT),
  ),
  own(
    'POST',
    '/sandbox/cards/{id}/simulate/{kind}',
    TRANSACT,
    'The other simulators (authorization_expiry; an unknown kind is a 400 naming the kinds).',
  ),

  // Stablecoins
  op('GET', '/stablecoins', 'listStablecoins', READ),
  op('POST', '/stablecoins', 'registerStablecoin', MANAGE),
  op('GET', '/stablecoins/{stablecoinId}', 'getStablecoin', READ),
  own(
    'POST',
    '/stablecoins/{stablecoinId}/enablement',
    MANAGE,
    'The enablement request (spec 3 names it, the contract has no path for it): platform config.',
  ),
  op('POST', '/stablecoins/{stablecoinId}/mints', 'createStablecoinMint', TRANSACT),
  op('POST', '/stablecoins/{stablecoinId}/burns', 'createStablecoinBurn', TRANSACT),
  op('GET', '/stablecoins/{stablecoinId}/operations', 'listStablecoinOperations', READ),
  op('GET', '/stablecoin-operations/{stablecoinOperationId}', 'getStablecoinOperation', READ),
  op('GET', '/stablecoin-provider-accounts', 'listStablecoinProviderAccounts', READ),
  op('POST', '/stablecoin-provider-accounts', 'linkStablecoinProviderAccount', MANAGE),
  op('GET', '/stablecoin-provider-accounts/{stablecoinProviderAccountId}', 'getStablecoinProviderAccount', READ),

  // Sandbox: the contract's simulators
  op('POST', '/sandbox/webhooks/test', 'sendTestWebhook', MANAGE, {note: 'Webhooks are platform config.'}),
  op('POST', '/sandbox/send', 'sandboxSend', TRANSACT),
  op('POST', '/sandbox/uma/receive', 'sandboxReceive', TRANSACT),
  op('POST', '/sandbox/internal-accounts/{accountId}/fund', 'sandboxFundInternalAccount', TRANSACT),

  // Sandbox: its own routes
  own(
    'GET',
    '/sandbox/webhook-public-key',
    PUBLIC,
    'The key that verifies webhooks is public (the Service hands it out at integration).',
  ),
  own('GET', '/sandbox/quorum-public-key', READ, 'The wallet quorum key, for clients that check bundles.'),
  own('GET', '/sandbox/events', READ, 'The webhook event log.'),
  // The sandbox clock moves every expiry and delay of the whole sandbox: platform config, as the settings are.
  own('GET', '/sandbox/clock', MANAGE, 'The sandbox clock: its mode and time.'),
  own('POST', '/sandbox/clock/advance', MANAGE, 'Moves the sandbox clock on, running the jobs due on the way.'),
  own('POST', '/sandbox/clock/freeze', MANAGE, 'Stops the sandbox clock.'),
  own('POST', '/sandbox/clock/unfreeze', MANAGE, 'Lets the sandbox clock tick again from where it stands.'),
  own('POST', '/sandbox/clock/reset', MANAGE, "Puts the sandbox clock back on the machine's time."),
  own('POST', '/sandbox/events/{eventId}/replay', MANAGE, 'Re-sends a webhook: webhook delivery is platform config.'),
  own(
    'POST',
    '/sandbox/quotes/{quoteId}/execute-as-agent',
    TRANSACT,
    'Executes a quote as an agent would (a test helper): a payment.',
  ),
  own(
    'POST',
    '/sandbox/wallet-requests/{requestId}/settle',
    SESSION,
    'Finishes a wallet request left PROCESSING: whoever may start one.',
  ),
  own('POST', '/sandbox/stablecoins/{stablecoinId}/enablement', MANAGE, 'Asks for a stablecoin: platform config.'),
  own(
    'POST',
    '/sandbox/stablecoin-provider-accounts/{id}/status',
    MANAGE,
    "Moves a provider account's status (the provider's side).",
  ),
  own(
    'GET',
    '/sandbox/hosted/kyc/{token}',
    PUBLIC,
    "The hosted KYC page a customer's browser opens; the token is the credential.",
  ),
  own('POST', '/sandbox/hosted/kyc/{token}', PUBLIC, "The hosted KYC page's form."),
  own('GET', '/sandbox/hosted/liveness/{token}', PUBLIC, 'The hosted liveness page.'),
  own('POST', '/sandbox/hosted/liveness/{token}/complete', PUBLIC, "The hosted liveness page's form."),
  own(
    'GET',
    '/sandbox/hosted/cards/reveal/{token}',
    PUBLIC,
    'The card reveal page behind the short-lived panEmbedUrl.',
  ),
]
