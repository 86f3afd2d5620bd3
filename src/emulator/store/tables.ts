/**
 * The sandbox's tables: one per resource, the API object kept whole as JSON in `doc` (its inside is
 * opaque to queries) plus the columns the routes look things up by, each with an index. Columns
 * are derived from the document on every write, so they can never disagree with it.
 *
 * This list, assembled from tables/*.ts by area, is the one source of truth for the schema: migrations
 * create what is declared here.
 */

import type {TableDef} from './schema.js'
import {CUSTOMERS_TABLES} from './tables/customers.js'
import {MONEY_TABLES} from './tables/money.js'
import {KYC_TABLES} from './tables/kyc.js'
import {SYSTEM_TABLES} from './tables/system.js'
import {WALLET_TABLES} from './tables/wallet.js'
import {CARDS_TABLES} from './tables/cards.js'
import {PLATFORM_TABLES} from './tables/platform.js'
import {AGENTS_TABLES} from './tables/agents.js'

export type {Column, GroupCount, RangeCount, TableDef} from './schema.js'
export * from './schema-sql.js'

export const TABLES: TableDef[] = [
  {name: 'config', columns: [], indexes: [], cached: true},
  ...CUSTOMERS_TABLES,
  ...MONEY_TABLES,
  ...KYC_TABLES,
  ...SYSTEM_TABLES,
  ...WALLET_TABLES,
  ...CARDS_TABLES,
  ...PLATFORM_TABLES,
  ...AGENTS_TABLES,
]
