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
    columns: [text('client_id', 'clientId'), text('name', 'name'), createdAt, text('updated_at', 'updatedAt')],
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
      text('provider', 'provider'),
      text('status', 'status'),
      text('provider_account_id', 'providerAccountId'),
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
      text('symbol', 'symbol'),
      text('network_token_identifier', 'networkTokenIdentifier'),
      text('issuance_status', 'issuanceStatus'),
      text('operations_status', 'gridOperationsStatus'),
      text('provider', 'provider'),
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
    columns: [text('stablecoin_id', 'stablecoinId'), text('operation_type', 'operationType'), createdAt],
    indexes: [
      {columns: ['stablecoin_id', 'created_at', 'id']},
      {columns: ['stablecoin_id', 'operation_type', 'created_at', 'id']},
    ],
  },
]
