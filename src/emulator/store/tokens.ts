import type {z} from 'zod'
import type {tokenListQuery} from '../../lib/schemas/tokens.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {keysetPage} from './keyset.js'

export interface StoredToken {
  id: string
  name: string
  permissions: string[]
  clientId: string
  /** SHA-256 hex of the client secret: the secret itself is never stored. */
  secretSha256: string
  createdAt: string
  updatedAt: string
}

/** The token a Basic username names (unique index on client_id): the auth check's one lookup. */
export function tokenByClientId(db: Db, clientId: string): StoredToken | undefined {
  return db.docs<StoredToken>(db.sql.rows('SELECT doc FROM apiTokens WHERE client_id = ? LIMIT 1', clientId))[0]
}

const iso = (v: string) => new Date(v).toISOString()

/** GET /tokens: name and date filters over indexed columns, oldest first. */
export function pageTokens(db: Db, q: z.infer<typeof tokenListQuery>, paging: Paging) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, v: unknown) => (where.push(sql), params.push(v))
  if (q.name) add('name = ?', q.name)
  if (q.createdAfter) add('created_at >= ?', iso(q.createdAfter))
  if (q.createdBefore) add('created_at <= ?', iso(q.createdBefore))
  if (q.updatedAfter) add('updated_at >= ?', iso(q.updatedAfter))
  if (q.updatedBefore) add('updated_at <= ?', iso(q.updatedBefore))
  return keysetPage<StoredToken>(db, {table: 'apiTokens', where, params}, paging)
}
