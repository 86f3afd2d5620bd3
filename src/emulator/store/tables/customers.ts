/** Customers and their accounts: the lists filter customers by type, region, currency, UMA address and date. */

import {text, bool, createdAt, type TableDef} from '../schema.js'
import {customerCurrencies} from '../schema-sql.js'

export const CUSTOMERS_TABLES: TableDef[] = [
  {
    name: 'customers',
    columns: [
      text('platform_customer_id', 'platformCustomerId'),
      text('uma_address', 'umaAddress'),
      text('customer_type', 'customerType'),
      text('region', 'region'),
      bool('is_deleted', 'isDeleted'),
      createdAt,
      text('updated_at', 'updatedAt'),
    ],
    // Each filter of GET /customers leads an index that continues in the keyset order, so a
    // filtered page is one range read of limit + 1 entries (deleted customers, rare, are skipped
    // in the range). The partial (created_at, id) index answers the unfiltered list of active ones.
    indexes: [
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['uma_address', 'created_at', 'id']},
      {columns: ['customer_type', 'created_at', 'id']},
      {columns: ['region', 'created_at', 'id']},
      // customerType and region together: the one pair of low-cardinality filters whose page would
      // otherwise walk one of them testing the other row by row (and count every match).
      {columns: ['customer_type', 'region', 'created_at', 'id']},
      {columns: ['created_at', 'id'], where: 'is_deleted = 0'},
      {columns: ['created_at', 'id']},
      {columns: ['updated_at']},
    ],
    counts: [
      {name: 'customers', when: () => '1'},
      {name: 'customers.active', when: (row) => `${row}.is_deleted = 0`},
    ],
    groupCounts: [
      {name: 'customers.type', column: 'customer_type'},
      {name: 'customers.active.type', column: 'customer_type', when: (row) => `${row}.is_deleted = 0`},
      {name: 'customers.region', column: 'region'},
      {name: 'customers.active.region', column: 'region', when: (row) => `${row}.is_deleted = 0`},
      {name: 'customers.typeRegion', column: ['customer_type', 'region']},
      {
        name: 'customers.active.typeRegion',
        column: ['customer_type', 'region'],
        when: (row) => `${row}.is_deleted = 0`,
      },
    ],
    rangeCounts: [{name: 'customers'}, {name: 'customers.active', when: (row) => `${row}.is_deleted = 0`}],
    derived: customerCurrencies(),
  },
  {
    name: 'internalAccounts',
    columns: [
      text('customer_id', 'customerId'),
      text('type', 'type'),
      createdAt,
      text('currency', (d) => d.balance?.currency?.code),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['type', 'customer_id']},
      {columns: ['created_at', 'id']},
      {columns: ['type', 'created_at', 'id']},
      {columns: ['currency', 'created_at', 'id']},
    ],
  },
  {
    name: 'externalAccounts',
    columns: [
      text('customer_id', 'customerId'),
      text('challenge_token', (d) => d.challenge?.token),
      createdAt,
      bool('is_deleted', 'isDeleted'),
      text('currency', 'currency'),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['challenge_token']},
      {columns: ['created_at', 'id']},
      {columns: ['currency', 'created_at', 'id']},
    ],
  },
]
