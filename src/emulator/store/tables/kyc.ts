/** KYC/KYB records: beneficial owners, documents, verifications. */

import {text, createdAt, keyOnly, type TableDef} from '../schema.js'

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
  keyOnly('idempotency'),
  keyOnly('dailyVolume'),
  keyOnly('ledger'),
]
