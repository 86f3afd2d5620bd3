import type {z} from 'zod'
import type {customerListQuery} from '../../lib/schemas/customer.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, groupCountOf, keysetPage, rangeCountOf} from './keyset.js'

const iso = (v: string) => new Date(v).toISOString()

/** The active (not deleted) customer holding a platformCustomerId, if any (partial index). */
export function activeByPlatformId(db: Db, platformCustomerId: string): StoredCustomer | undefined {
  return db.docs<StoredCustomer>(
    db.sql.rows(
      'SELECT doc FROM customers WHERE platform_customer_id = ? AND is_deleted = 0 LIMIT 1',
      platformCustomerId,
    ),
  )[0]
}

/** The active customer holding a UMA address, if any (partial index). */
export function activeByUmaAddress(db: Db, umaAddress: string): StoredCustomer | undefined {
  return db.docs<StoredCustomer>(
    db.sql.rows('SELECT doc FROM customers WHERE uma_address = ? AND is_deleted = 0 LIMIT 1', umaAddress),
  )[0]
}

/**
 * GET /customers: the published filters, oldest first. Each filter leads an index that continues
 * in the keyset order (tables.ts); a currency is read from the customerCurrencies side table in
 * that order and joined to the documents. totalCount comes from running counters when the list
 * is unfiltered, filtered by customerType, region or currency alone, by customerType and region,
 * or by a created-at window alone (month/day/hour/minute buckets); otherwise the first page counts
 * once and the cursor carries the count (keysetPage).
 */
export function listCustomers(db: Db, q: z.infer<typeof customerListQuery>, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  const includeDeleted = q.isIncludingDeleted === 'true'
  const byCurrency = Boolean(q.currency)
  // The side table's own columns when it drives the walk: its primary key is the range to read.
  const own = byCurrency ? 'k' : 'c'
  if (byCurrency) add('k.currency = ?', q.currency)
  if (!includeDeleted) add(`${own}.is_deleted = 0`)
  if (q.platformCustomerId) add('c.platform_customer_id = ?', q.platformCustomerId)
  if (q.customerType) add('c.customer_type = ?', q.customerType)
  if (q.region) add('c.region = ?', q.region)
  if (q.umaAddress) add('c.uma_address = ?', q.umaAddress)
  if (q.createdAfter) add(`${own}.created_at >= ?`, iso(q.createdAfter))
  if (q.createdBefore) add(`${own}.created_at <= ?`, iso(q.createdBefore))
  if (q.updatedAfter) add('c.updated_at >= ?', iso(q.updatedAfter))
  if (q.updatedBefore) add('c.updated_at <= ?', iso(q.updatedBefore))
  // An update window alone: without statistics SQLite would walk the keyset order and test every
  // row's updated_at (the whole table for a recent window); the updated_at range instead reads
  // only the matches, then sorts them into keyset order. Cost: the number of matches, not rows.
  const onlyUpdated =
    (q.updatedAfter || q.updatedBefore) &&
    !(
      q.platformCustomerId ||
      q.customerType ||
      q.region ||
      q.umaAddress ||
      q.currency ||
      q.createdAfter ||
      q.createdBefore
    )
  const scope = includeDeleted ? 'customers' : 'customers.active'
  const filters = [
    q.platformCustomerId,
    q.customerType,
    q.region,
    q.umaAddress,
    q.currency,
    q.createdAfter,
    q.createdBefore,
    q.updatedAfter,
    q.updatedBefore,
  ].filter(Boolean).length
  let total: number | undefined
  if (filters === 0) total = countOf(db, scope)
  else if (filters === 1 && q.customerType) total = groupCountOf(db, `${scope}.type`, q.customerType)
  else if (filters === 1 && q.region) total = groupCountOf(db, `${scope}.region`, q.region)
  else if (filters === 1 && q.currency) total = groupCountOf(db, `${scope}.currency`, q.currency)
  else if (filters === 2 && q.customerType && q.region)
    total = groupCountOf(db, `${scope}.typeRegion`, `${q.customerType}|${q.region}`)
  else if (filters === Number(Boolean(q.createdAfter)) + Number(Boolean(q.createdBefore)))
    total = rangeCountOf(
      db,
      {name: scope, table: 'customers', scope: includeDeleted ? undefined : 'is_deleted = 0'},
      q.createdAfter && iso(q.createdAfter),
      q.createdBefore && iso(q.createdBefore),
    )
  const query = byCurrency
    ? {
        from: 'customerCurrencies AS k CROSS JOIN customers AS c ON c.id = k.customer_id',
        key: {createdAt: 'k.created_at', id: 'k.customer_id'},
      }
    : {
        from: `customers AS c${onlyUpdated ? ' INDEXED BY customers_updated_at' : ''}`,
        key: {createdAt: 'c.created_at', id: 'c.id'},
      }
  return keysetPage<StoredCustomer>(db, {table: 'customers', ...query, doc: 'c.doc', where, params, total}, paging)
}

/** The stored customer: the API object plus write-only fields that are never returned. */
export interface StoredCustomer {
  id: string
  platformCustomerId: string
  customerType: 'INDIVIDUAL' | 'BUSINESS'
  umaAddress: string
  kycStatus?: string
  kybStatus?: string
  email?: string
  phoneNumber?: string
  region?: string
  currencies?: string[]
  contactVerification?: {email?: 'PENDING' | 'VERIFIED'; phone?: 'PENDING' | 'VERIFIED'}
  businessInfo?: Record<string, unknown> & {country?: string; registrationNumber?: string}
  address?: {country?: string}
  nationality?: string
  fullName?: string
  identifier?: string
  isDeleted: boolean
  createdAt: string
  updatedAt: string
  [key: string]: unknown
}
