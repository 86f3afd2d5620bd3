/** Embedded wallets: credentials and sessions. */

import {text, createdAt, keyOnly, type TableDef} from '../schema.js'

export const WALLET_TABLES: TableDef[] = [
  {
    name: 'walletCredentials',
    columns: [
      text('account_id', 'accountId'),
      text('type', 'type'),
      text('nickname', 'nickname'),
      text('credential_id', 'credentialId'),
      createdAt,
    ],
    indexes: [
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['type', 'nickname']},
      {columns: ['credential_id']},
    ],
  },
  {
    name: 'walletSessions',
    columns: [
      text('account_id', 'accountId'),
      text('public_key', 'publicKey'),
      text('credential_id', 'credentialId'),
      createdAt,
    ],
    indexes: [
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['public_key', 'created_at', 'id']},
      {columns: ['credential_id']},
    ],
  },
  keyOnly('walletSeeds'),
  keyOnly('walletRequests'),
  keyOnly('walletPasskeyChallenges'),
  keyOnly('walletPasskeyRegistrationChallenges'),
  keyOnly('walletUsedOidcTokens'),
]
