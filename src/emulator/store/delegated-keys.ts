import type {Db} from './db.js'

/** Delegated keys by wallet account and/or card funding source (indexes in tables.ts). */
export function delegatedKeysWhere<T>(db: Db, f: {accountId?: string; fundingSourceId?: string}): T[] {
  const where: string[] = []
  const params: unknown[] = []
  if (f.accountId) (where.push('account_id = ?'), params.push(f.accountId))
  if (f.fundingSourceId) (where.push('funding_source_id = ?'), params.push(f.fundingSourceId))
  return db.docs<T>(
    db.sql.rows(
      `SELECT doc FROM delegatedKeys WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT 1000`,
      ...params,
    ),
  )
}

/** The ACTIVE key of a card funding source, if any (one at most). */
export function activeKeyOfFundingSource<T>(db: Db, fundingSourceId: string): T | undefined {
  return db.docs<T>(
    db.sql.rows(
      "SELECT doc FROM delegatedKeys WHERE funding_source_id = ? AND status = 'ACTIVE' LIMIT 1",
      fundingSourceId,
    ),
  )[0]
}
