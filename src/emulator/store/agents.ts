import type {AgentPolicy} from '../../lib/schemas/agents.js'
import type {Paging} from '../paging.js'
import type {Db} from './db.js'
import {countOf, keysetPage} from './keyset.js'

const iso = (v: string) => new Date(v).toISOString()

/** GET /agents: by customer, paused and connected flags, and creation/update windows; oldest first. */
export function listAgents(
  db: Db,
  q: {
    customerId?: string
    isPaused?: string
    isConnected?: string
    createdAfter?: string
    createdBefore?: string
    updatedAfter?: string
    updatedBefore?: string
  },
  paging: Paging,
) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  if (q.customerId) add('customer_id = ?', q.customerId)
  if (q.isPaused) add('is_paused = ?', q.isPaused === 'true' ? 1 : 0)
  if (q.isConnected) add('is_connected = ?', q.isConnected === 'true' ? 1 : 0)
  if (q.createdAfter) add('created_at >= ?', iso(q.createdAfter))
  if (q.createdBefore) add('created_at <= ?', iso(q.createdBefore))
  if (q.updatedAfter) add('updated_at >= ?', iso(q.updatedAfter))
  if (q.updatedBefore) add('updated_at <= ?', iso(q.updatedBefore))
  // Only an update window: read its index range and sort the matches (see listCustomers).
  const onlyUpdated = where.length > 0 && where.every((w) => w.startsWith('updated_at'))
  return keysetPage<StoredAgent>(
    db,
    {
      table: 'agents',
      ...(onlyUpdated ? {from: 'agents INDEXED BY agents_updated_at'} : {}),
      where,
      params,
      total: where.length ? undefined : countOf(db, 'agents'),
    },
    paging,
  )
}

/** Agent actions: the platform's pending approvals (status index) or one agent's actions (agent index). */
export function listAgentActions(
  db: Db,
  q: {
    status?: string
    agentId?: string
    customerId?: string
    startDate?: string
    endDate?: string
    sortOrder?: 'asc' | 'desc'
  },
  paging: Paging,
) {
  const where: string[] = []
  const params: unknown[] = []
  const add = (sql: string, ...values: unknown[]) => (where.push(sql), params.push(...values))
  if (q.status) add('status = ?', q.status)
  if (q.agentId) add('agent_id = ?', q.agentId)
  if (q.customerId) add('customer_id = ?', q.customerId)
  if (q.startDate) add('created_at >= ?', iso(q.startDate))
  if (q.endDate) add('created_at <= ?', iso(q.endDate))
  return keysetPage<StoredAgentAction>(db, {table: 'agentActions', where, params, order: q.sortOrder ?? 'asc'}, paging)
}

/** The agent action that started a transaction, if any (transaction_id index). */
export function actionOfTransaction(db: Db, transactionId: string): StoredAgentAction | undefined {
  return db.docs<StoredAgentAction>(
    db.sql.rows('SELECT doc FROM agentActions WHERE transaction_id = ? LIMIT 1', transactionId),
  )[0]
}

/**
 * Agents act for one customer with a Bearer token obtained by redeeming a device code the platform
 * issued. Tokens are stored only as their SHA-256; device codes expire and redeem once.
 */
export interface StoredAgent {
  id: string
  name: string
  customerId: string
  isPaused: boolean
  isConnected: boolean
  policy: AgentPolicy
  usage: {
    dailyTransactionCount: number
    dailySpend: number
    dailyResetDate: string
    monthlySpend: number
    monthlyResetMonth: string
  }
  createdAt: string
  updatedAt: string
  /** Internal: the current token's hash, the latest device code and who granted its payments. Never returned. */
  _: {tokenHash?: string; deviceCode?: string; grant?: AgentGrant}
}

/**
 * Who let the agent move money: the API token (holding TRANSACT) that last created, widened or
 * issued a device code for it while its policy could move money; `sandbox` when it was the
 * sandbox's own credentials or the sandbox itself (those cannot be deleted).
 */
export interface AgentGrant {
  tokenId: string
  sandbox?: true
  grantedAt: string
}

export interface StoredAgentAction {
  id: string
  agentId: string
  customerId: string
  platformCustomerId: string
  status: 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED'
  type: 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN'
  quote?: Record<string, unknown>
  transferDetails?: {amount: number; currency: string; sourceAccountId: string; destinationAccountId: string}
  transaction?: Record<string, unknown>
  rejectionReason?: string
  createdAt: string
  updatedAt: string
  _: {transactionId?: string; reasons: string[]; amountPolicy: number}
}
