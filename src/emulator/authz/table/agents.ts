import {type AuthzEntry, READ, TRANSACT, MANAGE, PUBLIC, op} from './build.js'

/** Agent management (platform side) */
export const AGENT_MANAGEMENT: readonly AuthzEntry[] = [
  op('GET', '/agents', 'listAgents', READ),
  op('POST', '/agents', 'createAgent', MANAGE, {
    delegation: {grant: TRANSACT},
    note: 'An agent that may move money (CREATE_TRANSFERS, EXECUTE_QUOTES) is a payment grant: also TRANSACT.',
  }),
  op('GET', '/agents/approvals', 'listAgentApprovals', READ),
  op('GET', '/agents/{agentId}', 'getAgentById', READ),
  op('PATCH', '/agents/{agentId}', 'updateAgent', MANAGE),
  op('DELETE', '/agents/{agentId}', 'deleteAgent', MANAGE),
  op('PATCH', '/agents/{agentId}/policy', 'updateAgentPolicy', MANAGE, {
    delegation: {grant: TRANSACT},
    note: 'Narrowing is managing; widening what a money-moving agent may move (limits, thresholds, AUTO, accounts, permissions) also needs TRANSACT.',
  }),
  op('POST', '/agents/{agentId}/device-codes', 'regenerateAgentDeviceCode', MANAGE, {
    delegation: {grant: TRANSACT},
    note: 'A device code of a money-moving agent hands its payments to whoever redeems it: also TRANSACT.',
  }),
  op('POST', '/agents/{agentId}/actions/{actionId}/approve', 'approveAgentAction', TRANSACT, {
    note: "Approving an agent's action sends its payment.",
  }),
  op('POST', '/agents/{agentId}/actions/{actionId}/reject', 'rejectAgentAction', TRANSACT),
  op('GET', '/agents/device-codes/{code}/status', 'getAgentDeviceCodeStatus', READ),
  op('POST', '/agents/device-codes/{code}/redeem', 'redeemAgentDeviceCode', PUBLIC, {
    note: 'The contract gives it no security: the code is the credential.',
  }),
]
