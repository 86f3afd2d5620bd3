/** KYC/KYB records: beneficial owners, documents, verifications. */

import {text, int, createdAt, keyOnly, type TableDef} from '../schema.js'

export const KYC_TABLES: TableDef[] = [
  {
    name: 'beneficialOwners',
    columns: [text('customer_id', 'customerId'), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}],
  },
  {
    name: 'documents',
    columns: [text('holder', 'documentHolder'), createdAt],
    indexes: [{columns: ['holder', 'created_at', 'id']}, {columns: ['created_at', 'id']}],
  },
  {
    name: 'verifications',
    columns: [text('customer_id', 'customerId'), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}, {columns: ['created_at', 'id']}],
  },
  keyOnly('kycLinks'),
  keyOnly('contactCodes'),
  // A replayable answer by `<principal>|<scope>|<key>`; stored_at: when, for its retention (store/retention.ts).
  {name: 'idempotency', columns: [int('stored_at', (d) => d.at)], indexes: [{columns: ['stored_at']}]},
  keyOnly('dailyVolume'),
  keyOnly('ledger'),
]
