import type {z} from 'zod'
import type {customerListQuery} from '../../lib/schemas/customer.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, keysetPage} from './keyset.js'

const iso = (v: string) => new Date(v).toISOString()

/** The active (not deleted) customer holding a platformCustomerId, if any (partial index). */
export function activeByPlatformId(db: Db, platformCustomerId: string): StoredCustomer | undefined {
  return db.docs<StoredCustomer>(db.sql.rows('SELECT doc FROM customers WHERE platform_customer_id = ? AND is_deleted = 0 LIMIT 1', platformCustomerId))[0]
}

/** The active customer holding a UMA address, if any (partial index). */
export function activeByUmaAddress(db: Db, umaAddress: string): StoredCustomer | undefined {
  return db.docs<StoredCustomer>(db.sql.rows('SELECT doc FROM customers WHERE uma_address = ? AND is_deleted = 0 LIMIT 1', umaAddress))[0]
}

/** GET /customers: the published filters over indexed columns, oldest first. */
export function listCustomers(db: Db, q: z.infer<typeof customerListQuery>, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  const includeDeleted = q.isIncludingDeleted === 'true'
  if (!includeDeleted) add('is_deleted = 0')
  if (q.platformCustomerId) add('platform_customer_id = ?', q.platformCustomerId)
  if (q.customerType) add('customer_type = ?', q.customerType)
  if (q.region) add('region = ?', q.region)
  if (q.umaAddress) add('uma_address = ?', q.umaAddress)
  if (q.currency) add("EXISTS (SELECT 1 FROM json_each(doc, '$.currencies') WHERE value = ?)", q.currency)
  if (q.createdAfter) add('created_at >= ?', iso(q.createdAfter))
  if (q.createdBefore) add('created_at <= ?', iso(q.createdBefore))
  if (q.updatedAfter) add('updated_at >= ?', iso(q.updatedAfter))
  if (q.updatedBefore) add('updated_at <= ?', iso(q.updatedBefore))
  const unfiltered = where.length === (includeDeleted ? 0 : 1)
  const total = unfiltered ? countOf(db, includeDeleted ? 'customers' : 'customers.active') : undefined
  return keysetPage<StoredCustomer>(db, {table: 'customers', where, params, total}, paging)
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
