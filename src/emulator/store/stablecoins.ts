import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {keysetPage} from './keyset.js'

/** Lookups of the stablecoin tables (each over an index declared in tables.ts). */
type Doc = {id: string; createdAt: string}

export function activeProviderAccounts<T>(db: Db): T[] {
  return db.docs<T>(
    db.sql.rows("SELECT doc FROM stablecoinProviderAccounts WHERE status = 'ACTIVE' ORDER BY created_at, id LIMIT 100"),
  )
}

export function providerAccountByProviderId<T>(db: Db, provider: string, providerAccountId: string): T | undefined {
  return db.docs<T>(
    db.sql.rows(
      'SELECT doc FROM stablecoinProviderAccounts WHERE provider = ? AND provider_account_id = ? LIMIT 1',
      provider,
      providerAccountId,
    ),
  )[0]
}

export function stablecoinBySymbol<T>(db: Db, symbol: string): T | undefined {
  return db.docs<T>(db.sql.rows('SELECT doc FROM stablecoins WHERE symbol = ? LIMIT 1', symbol))[0]
}

export function stablecoinByNetworkToken<T>(db: Db, networkTokenIdentifier: string): T | undefined {
  return db.docs<T>(
    db.sql.rows('SELECT doc FROM stablecoins WHERE network_token_identifier = ? LIMIT 1', networkTokenIdentifier),
  )[0]
}

function filtered(f: Record<string, string | undefined>): {where: string[]; params: unknown[]} {
  const where: string[] = []
  const params: unknown[] = []
  for (const [column, value] of Object.entries(f))
    if (value !== undefined) (where.push(`${column} = ?`), params.push(value))
  return {where, params}
}

export function pageProviderAccounts<T extends Doc>(db: Db, f: {provider?: string; status?: string}, paging: Paging) {
  return keysetPage<T>(
    db,
    {table: 'stablecoinProviderAccounts', ...filtered({provider: f.provider, status: f.status})},
    paging,
  )
}

export function pageStablecoins<T extends Doc>(
  db: Db,
  f: {issuanceStatus?: string; gridOperationsStatus?: string; provider?: string},
  paging: Paging,
) {
  return keysetPage<T>(
    db,
    {
      table: 'stablecoins',
      ...filtered({issuance_status: f.issuanceStatus, operations_status: f.gridOperationsStatus, provider: f.provider}),
    },
    paging,
  )
}

/** A stablecoin's operations, most recent first (openapi listStablecoinOperations). */
export function pageOperations<T extends Doc>(
  db: Db,
  stablecoinId: string,
  operationType: string | undefined,
  paging: Paging,
) {
  return keysetPage<T>(
    db,
    {
      table: 'stablecoinOperations',
      order: 'desc',
      ...filtered({stablecoin_id: stablecoinId, operation_type: operationType}),
    },
    paging,
  )
}
