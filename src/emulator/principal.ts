/** The contract's API token permissions (schema `Permission`). */
export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE'

/**
 * Who is calling: decided once per request by the server, before any handler runs, and carried in
 * the request context. The sandbox's own credentials (credentials.json) are a platform principal
 * holding every permission. Scheduled jobs and reactions act as `system`.
 */
export type Principal =
  /** `own`: the sandbox's own credentials (credentials.json), which no API call can delete. */
  | {kind: 'platform'; tokenId: string; permissions: readonly Permission[]; own?: true}
  | {kind: 'agent'; agentId: string; customerId: string}
  | {kind: 'public'}
  | {kind: 'system'}
