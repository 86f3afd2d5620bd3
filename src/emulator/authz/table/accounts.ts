import {type AuthzEntry, READ, MANAGE, op, own} from './build.js'

/** Accounts */
export const ACCOUNTS: readonly AuthzEntry[] = [
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
]
