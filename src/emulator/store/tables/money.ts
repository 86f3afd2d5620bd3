/** Quotes and transactions: the money that moves. */

import {text, createdAt, type TableDef} from '../schema.js'

export const MONEY_TABLES: TableDef[] = [
  {
    name: 'quotes',
    columns: [text('customer_id', 'customerId'), createdAt],
    indexes: [{columns: ['customer_id', 'created_at', 'id']}],
  },
  {
    name: 'transactions',
    columns: [
      text('customer_id', 'customerId'),
      text('platform_customer_id', 'platformCustomerId'),
      text('source_account_id', (d) => d.source?.accountId),
      text('destination_account_id', (d) => d.destination?.accountId),
      text('status', 'status'),
      text('type', 'type'),
      text('reference', (d) => d.refund?.reference),
      createdAt,
    ],
    indexes: [
      {columns: ['created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['source_account_id', 'created_at', 'id']},
      {columns: ['destination_account_id', 'created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['type', 'created_at', 'id']},
      {columns: ['reference']},
    ],
    counts: [{name: 'transactions', when: () => '1'}],
    groupCounts: [
      {name: 'transactions.status', column: 'status'},
      {name: 'transactions.type', column: 'type'},
      // ?accountIdentifier=: the account as the source, and as the destination of a payment from
      // another account (the two ranges the list merges), so its total is two look-ups.
      {name: 'transactions.source', column: 'source_account_id'},
      {
        name: 'transactions.destination',
        column: 'destination_account_id',
        when: (row) => `${row}.source_account_id IS NOT ${row}.destination_account_id`,
      },
    ],
    rangeCounts: [{name: 'transactions'}],
  },
]
