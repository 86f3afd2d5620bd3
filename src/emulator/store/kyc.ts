import type {DocumentType} from '../../lib/schemas/kyc.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {docsWhere, keysetPage} from './keyset.js'

/** A business's beneficial owners, oldest first. */
export function ownersOf(db: Db, customerId: string): StoredOwner[] {
  return docsWhere<StoredOwner>(db, 'beneficialOwners', 'customer_id', customerId)
}

/** The documents of one holder (customer or owner), oldest first. */
export function documentsOf(db: Db, holder: string): StoredDocument[] {
  return docsWhere<StoredDocument>(db, 'documents', 'holder', holder)
}

/** One page of every document, oldest first. */
export function pageDocuments(db: Db, paging: Paging) {
  return keysetPage<StoredDocument>(db, {table: 'documents', where: [], params: []}, paging)
}

/** Verifications, newest first (so `limit=1` is the latest submission), by customer and status. */
export function pageVerifications<T extends {createdAt: string; id: string}>(
  db: Db,
  f: {customerId?: string; verificationStatus?: string},
  paging: Paging,
) {
  const where: string[] = []
  const params: unknown[] = []
  if (f.customerId) (where.push('customer_id = ?'), params.push(f.customerId))
  if (f.verificationStatus)
    (where.push("json_extract(doc, '$.verificationStatus') = ?"), params.push(f.verificationStatus))
  return keysetPage<T>(db, {table: 'verifications', where, params, order: 'desc'}, paging)
}

export interface StoredOwner {
  id: string
  customerId: string
  roles: string[]
  ownershipPercentage: number
  personalInfo: Record<string, unknown> & {firstName: string; lastName: string; identifier?: string}
  kycStatus: string
  createdAt: string
  updatedAt: string
}

export interface StoredDocument {
  id: string
  documentHolder: string
  documentType: DocumentType
  side?: 'FRONT' | 'BACK'
  country: string
  documentNumber?: string
  issuingAuthority?: string
  fileName: string
  mimeType: string
  size: number
  sha256: string
  createdAt: string
  updatedAt: string
}
