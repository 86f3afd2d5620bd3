/** Bulk imports, receiver look-ups, API tokens, invitations, stablecoin issuance. */

import {text, createdAt, keyOnly, type TableDef} from '../schema.js'

export const PLATFORM_TABLES: TableDef[] = [
  // Bulk customer imports: the job by id; its not-yet-processed rows by `<jobId>#<chunk>`.
  {...keyOnly('bulkImportJobs'), since: 2},
  {...keyOnly('bulkImportChunks'), since: 2},
  // Receiver look-ups (GET /receiver/...), by lookupId, for the quote that follows.
  {...keyOnly('receiverLookups'), since: 2},
  // Issue 11: API tokens, invitations, stablecoin issuance, delegated wallet keys.
  {
    name: 'apiTokens',
    since: 2,
    columns: [
      text('client_id', (d) => d.clientId),
      text('name', (d) => d.name),
      createdAt,
      text('updated_at', (d) => d.updatedAt),
    ],
    indexes: [
      {columns: ['client_id'], unique: true},
      {columns: ['created_at', 'id']},
      {columns: ['name', 'created_at', 'id']},
      {columns: ['updated_at']},
    ],
  },
  {name: 'invitations', since: 2, columns: [createdAt], indexes: [{columns: ['created_at', 'id']}]},
  {
    name: 'stablecoinProviderAccounts',
    since: 2,
    columns: [
      text('provider', (d) => d.provider),
      text('status', (d) => d.status),
      text('provider_account_id', (d) => d.providerAccountId),
      createdAt,
    ],
    indexes: [
      {columns: ['created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['provider', 'provider_account_id']},
    ],
  },
  {
    name: 'stablecoins',
    since: 2,
    columns: [
      text('symbol', (d) => d.symbol),
      text('network_token_identifier', (d) => d.networkTokenIdentifier),
      text('issuance_status', (d) => d.issuanceStatus),
      text('operations_status', (d) => d.gridOperationsStatus),
      text('provider', (d) => d.provider),
      createdAt,
    ],
    indexes: [
      {columns: ['symbol'], unique: true},
      {columns: ['network_token_identifier'], unique: true},
      {columns: ['created_at', 'id']},
      {columns: ['issuance_status', 'created_at', 'id']},
      {columns: ['operations_status', 'created_at', 'id']},
      {columns: ['provider', 'created_at', 'id']},
    ],
  },
  {
    name: 'stablecoinOperations',
    since: 2,
    columns: [text('stablecoin_id', (d) => d.stablecoinId), text('operation_type', (d) => d.operationType), createdAt],
    indexes: [
      {columns: ['stablecoin_id', 'created_at', 'id']},
      {columns: ['stablecoin_id', 'operation_type', 'created_at', 'id']},
    ],
  },
]
