/** Embedded wallets: credentials and sessions. */

import {text, createdAt, keyOnly, type TableDef} from '../schema.js'

export const WALLET_TABLES: TableDef[] = [
  {
    name: 'walletCredentials',
    columns: [
      text('account_id', (d) => d.accountId),
      text('type', (d) => d.type),
      text('nickname', (d) => d.nickname),
      text('credential_id', (d) => d.credentialId),
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
      text('account_id', (d) => d.accountId),
      text('public_key', (d) => d.publicKey),
      text('credential_id', (d) => d.credentialId),
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
