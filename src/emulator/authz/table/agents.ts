import {type AuthzEntry, READ, TRANSACT, MANAGE, PUBLIC, op} from './build.js'

/** Agent management (platform side) */
export const AGENT_MANAGEMENT: readonly AuthzEntry[] = [
  op('GET', '/agents', 'listAgents', READ),
  op('POST', '/agents', 'createAgent', MANAGE),
  op('GET', '/agents/approvals', 'listAgentApprovals', READ),
  op('GET', '/agents/{agentId}', 'getAgentById', READ),
  op('PATCH', '/agents/{agentId}', 'updateAgent', MANAGE),
  op('DELETE', '/agents/{agentId}', 'deleteAgent', MANAGE),
  op('PATCH', '/agents/{agentId}/policy', 'updateAgentPolicy', MANAGE),
  op('POST', '/agents/{agentId}/device-codes', 'regenerateAgentDeviceCode', MANAGE),
  op('POST', '/agents/{agentId}/actions/{actionId}/approve', 'approveAgentAction', TRANSACT, {
    note: "Approving an agent's action sends its payment.",
  }),
  op('POST', '/agents/{agentId}/actions/{actionId}/reject', 'rejectAgentAction', TRANSACT),
  op('GET', '/agents/device-codes/{code}/status', 'getAgentDeviceCodeStatus', READ),
  op('POST', '/agents/device-codes/{code}/redeem', 'redeemAgentDeviceCode', PUBLIC, {
    note: 'The contract gives it no security: the code is the credential.',
  }),
]
