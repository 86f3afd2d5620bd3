/** Who may act for a customer: delegated wallet keys, SCA state, agents and their actions. */

import {text, bool, createdAt, keyOnly, type TableDef} from '../schema.js'

export const AGENTS_TABLES: TableDef[] = [
  {
    name: 'delegatedKeys',
    since: 2,
    columns: [
      text('account_id', 'accountId'),
      text('funding_source_id', 'fundingSourceId'),
      text('status', 'status'),
      createdAt,
    ],
    indexes: [{columns: ['account_id', 'created_at', 'id']}, {columns: ['funding_source_id', 'status']}],
  },
  // Strong customer authentication (since 2): one state document per customer, factor resets by id.
  {...keyOnly('scaStates'), since: 2},
  {...keyOnly('scaResets'), since: 2},
  // Agents (since 2): the platform lists them by customer and approvals by status; tokens and device
  // codes are looked up by key only (a token by its SHA-256, never stored in clear).
  {
    name: 'agents',
    columns: [
      text('customer_id', 'customerId'),
      bool('is_paused', 'isPaused'),
      bool('is_connected', 'isConnected'),
      createdAt,
      text('updated_at', 'updatedAt'),
    ],
    indexes: [
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
      {columns: ['is_paused', 'created_at', 'id']},
      {columns: ['is_connected', 'created_at', 'id']},
      {columns: ['updated_at']},
    ],
    counts: [{name: 'agents', when: () => '1'}],
    since: 2,
  },
  {...keyOnly('agentDeviceCodes'), since: 2},
  {...keyOnly('agentTokens'), since: 2},
  {
    name: 'agentActions',
    columns: [
      text('agent_id', 'agentId'),
      text('customer_id', 'customerId'),
      text('status', 'status'),
      text('transaction_id', (d) => d._?.transactionId),
      createdAt,
    ],
    indexes: [
      {columns: ['agent_id', 'created_at', 'id']},
      {columns: ['status', 'created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
      {columns: ['transaction_id']},
    ],
    since: 2,
  },
]
