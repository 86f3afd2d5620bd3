import {type AuthzEntry, READ, MANAGE, SESSION, op} from './build.js'

/** Embedded wallet auth: the customer's wallet access (MANAGE); logging in and keeping a session serve payments too. */
export const WALLET_AUTH: readonly AuthzEntry[] = [
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
]
