import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {docsWhere, keysetPage} from './keyset.js'

export interface InternalAccountFilter {
  /** A customer's accounts; `null` for the platform's own. */
  customerId?: string | null
  currency?: string
  type?: string
}

function internalWhere(f: InternalAccountFilter) {
  const where: string[] = []
  const params: unknown[] = []
  if (f.customerId === null) where.push('customer_id IS NULL')
  else if (f.customerId) (where.push('customer_id = ?'), params.push(f.customerId))
  if (f.type) (where.push('type = ?'), params.push(f.type))
  if (f.currency) (where.push('currency = ?'), params.push(f.currency))
  return {where, params}
}

/** Internal accounts by customer (or the platform's), currency and type: one page, oldest first. */
export function pageInternalAccounts(db: Db, f: InternalAccountFilter, paging: Paging) {
  return keysetPage<InternalAccount>(db, {table: 'internalAccounts', ...internalWhere(f)}, paging)
}

/** Every internal account matching the filter: for the platform's own few accounts. */
export function internalAccounts(db: Db, f: InternalAccountFilter): InternalAccount[] {
  return keysetPage<InternalAccount>(db, {table: 'internalAccounts', ...internalWhere(f)}, {limit: 10_000}).rows
}

/** The EMBEDDED_WALLET accounts of a customer. */
export function walletsOf(db: Db, customerId: string): InternalAccount[] {
  return db.docs<InternalAccount>(
    db.sql.rows(
      "SELECT doc FROM internalAccounts WHERE type = 'EMBEDDED_WALLET' AND customer_id = ? ORDER BY created_at, id",
      customerId,
    ),
  )
}

/** A customer's external accounts (or, with `null`, the platform's), deleted ones included. */
export function externalAccountsOf(db: Db, customerId: string | null | undefined): StoredExternalAccount[] {
  return docsWhere<StoredExternalAccount>(db, 'externalAccounts', 'customer_id', customerId)
}

/** External accounts, active only, by scope, customer and currency: one page, oldest first. */
export function pageExternalAccounts(
  db: Db,
  f: {platform: boolean; customerId?: string; currency?: string},
  paging: Paging,
) {
  const where = ['is_deleted = 0']
  const params: unknown[] = []
  if (f.platform) where.push('customer_id IS NULL')
  if (f.customerId) (where.push('customer_id = ?'), params.push(f.customerId))
  else if (!f.platform) where.push('customer_id IS NOT NULL')
  if (f.currency) (where.push('currency = ?'), params.push(f.currency))
  return keysetPage<StoredExternalAccount>(db, {table: 'externalAccounts', where, params}, paging)
}

/** The external account whose liveness challenge carries `token`. */
export function externalAccountByChallengeToken(db: Db, token: string): StoredExternalAccount | undefined {
  return docsWhere<StoredExternalAccount>(db, 'externalAccounts', 'challenge_token', token)[0]
}

export interface InternalAccount {
  id: string
  customerId?: string
  type: 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET'
  status: 'ACTIVE' | 'PENDING' | 'CLOSED' | 'FROZEN' | 'FAILED'
  balance: {amount: number; currency: {code: string; name?: string; symbol?: string; decimals?: number}}
  totalBalance: {amount: number; currency: {code: string; name?: string; symbol?: string; decimals?: number}}
  fundingPaymentInstructions: Array<Record<string, unknown>>
  privateEnabled?: boolean
  createdAt: string
  updatedAt: string
}

export interface StoredExternalAccount {
  id: string
  customerId?: string
  status: 'PENDING' | 'ACTIVE' | 'PENDING_OWNERSHIP_VERIFICATION' | 'UNVERIFIED' | 'UNDER_REVIEW' | 'INACTIVE'
  currency: string
  platformAccountId?: string
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY'
  defaultUmaDepositAccount: boolean
  beneficiaryVerificationStatus?: string
  accountInfo: Record<string, unknown> & {accountType: string}
  trusted: boolean
  isDeleted: boolean
  challenge?: StoredChallenge
  /** When recent challenges were issued (re-issue rate limit). */
  challengeLog?: number[]
  /** A trust or untrust started and waiting for its SCA code (domain/beneficiary-trust.ts). */
  trustChallenge?: {id: string; expiresAt: string; trusted: boolean}
  createdAt: string
  updatedAt: string
}

export interface StoredChallenge {
  method: 'WALLET_SIGNATURE' | 'LIVENESS'
  messageToSign?: string
  token?: string
  verificationLink?: string
  expiresAt: string
  /** Set once the user finished the hosted liveness page; the decision lands later. */
  livenessSubmitted?: boolean
}
