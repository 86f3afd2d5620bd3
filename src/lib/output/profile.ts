import type {ProfileRow} from '../login.js'
import type {Column} from './table.js'

/** The URL is never cut (a URL cut before its port points somewhere else); the secret's source goes first when narrow. */
export const profileColumns: Array<Column<ProfileRow>> = [
  {key: 'active', header: '', get: (r) => (r.active ? '*' : ''), noTruncate: true},
  {key: 'name', header: 'NAME', get: (r) => r.name, priority: 1, noTruncate: true},
  {key: 'environment', header: 'ENVIRONMENT', get: (r) => r.environment, priority: 3},
  {key: 'base-url', header: 'BASE URL', get: (r) => r.baseUrl, priority: 2, noTruncate: true},
  {key: 'token-id', header: 'TOKEN ID', get: (r) => r.tokenId ?? '-', priority: 4, noTruncate: true},
  {key: 'secret', header: 'SECRET', get: (r) => r.secret, priority: 5},
]
