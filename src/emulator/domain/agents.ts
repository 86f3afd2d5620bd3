import {createHash, randomBytes, randomInt} from 'node:crypto'
import type {z} from 'zod'
import type {
  AgentPolicy,
  agentCreateRequest,
  agentPolicyUpdateRequest,
  agentUpdateRequest,
} from '../../lib/schemas/agents.js'
import type {SandboxContext} from '../context.js'
import {invalid, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {getCustomer} from './customers.js'
import type {StoredAgent} from '../store/agents.js'
import type {StoredAgentAction} from '../store/agents.js'
export type {StoredAgentAction}
export type {StoredAgent}

export interface DeviceCode {
  code: string
  agentId: string
  expiresAt: string
  redeemed: boolean
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

export function publicAgent(a: StoredAgent) {
  const {_: _internal, ...rest} = a
  return rest
}

export function getAgent(emu: SandboxContext, id: string): StoredAgent {
  const a = emu.db.get<StoredAgent>('agents', id)
  if (!a) throw notFound('NOT_FOUND', `Agent ${id}`)
  return a
}

export function saveAgent(emu: SandboxContext, a: StoredAgent): StoredAgent {
  return emu.db.put('agents', a.id, {...a, updatedAt: emu.iso()})
}

function freshUsage(emu: SandboxContext): StoredAgent['usage'] {
  const today = emu.iso().slice(0, 10)
  return {
    dailyTransactionCount: 0,
    dailySpend: 0,
    dailyResetDate: today,
    monthlySpend: 0,
    monthlyResetMonth: today.slice(0, 7),
  }
}

/** Usage counters roll over at the UTC day and month. */
export function currentUsage(emu: SandboxContext, a: StoredAgent): StoredAgent['usage'] {
  const today = emu.iso().slice(0, 10)
  const u = a.usage
  const month = today.slice(0, 7)
  return {
    dailyTransactionCount: u.dailyResetDate === today ? u.dailyTransactionCount : 0,
    dailySpend: u.dailyResetDate === today ? u.dailySpend : 0,
    dailyResetDate: today,
    monthlySpend: u.monthlyResetMonth === month ? u.monthlySpend : 0,
    monthlyResetMonth: month,
  }
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
function newDeviceCode(): string {
  const pick = () => Array.from({length: 4}, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
  return `${pick()}-${pick()}`
}

/** A new device code for the agent; an earlier unredeemed code stops working. */
export function issueDeviceCode(emu: SandboxContext, a: StoredAgent): DeviceCode {
  if (a._.deviceCode) {
    const old = emu.db.get<DeviceCode>('agentDeviceCodes', a._.deviceCode)
    if (old && !old.redeemed) emu.db.del('agentDeviceCodes', old.code)
  }
  const dc: DeviceCode = {
    code: newDeviceCode(),
    agentId: a.id,
    expiresAt: emu.iso(emu.now() + emu.settings().agentDeviceCodeTtlMs),
    redeemed: false,
  }
  emu.db.put('agentDeviceCodes', dc.code, dc)
  saveAgent(emu, {...a, _: {...a._, deviceCode: dc.code}})
  return dc
}

export function createAgent(emu: SandboxContext, input: z.infer<typeof agentCreateRequest>) {
  const customer = getCustomer(emu, input.customerId)
  const now = emu.iso()
  const agent: StoredAgent = {
    id: newId('Agent'),
    name: input.name,
    customerId: customer.id,
    isPaused: false,
    isConnected: false,
    policy: input.policy,
    usage: freshUsage(emu),
    createdAt: now,
    updatedAt: now,
    _: {},
  }
  emu.db.put('agents', agent.id, agent)
  const deviceCode = issueDeviceCode(emu, agent)
  return {agent: publicAgent(getAgent(emu, agent.id)), deviceCode}
}

export function updateAgent(
  emu: SandboxContext,
  a: StoredAgent,
  patch: z.infer<typeof agentUpdateRequest>,
): StoredAgent {
  return saveAgent(emu, {
    ...a,
    ...(patch.name !== undefined ? {name: patch.name} : {}),
    ...(patch.isPaused !== undefined ? {isPaused: patch.isPaused} : {}),
  })
}

export function updatePolicy(
  emu: SandboxContext,
  a: StoredAgent,
  patch: z.infer<typeof agentPolicyUpdateRequest>,
): StoredAgent {
  const p = a.policy
  const policy: AgentPolicy = {
    ...p,
    ...(patch.permissions ? {permissions: patch.permissions} : {}),
    ...(patch.defaultExecutionMode ? {defaultExecutionMode: patch.defaultExecutionMode} : {}),
    spendingLimits: {...p.spendingLimits, ...patch.spendingLimits},
    ...(patch.accountRestrictions ? {accountRestrictions: patch.accountRestrictions} : {}),
    ...(patch.approvalThresholds ? {approvalThresholds: patch.approvalThresholds} : {}),
  }
  return saveAgent(emu, {...a, policy})
}

export function deleteAgent(emu: SandboxContext, a: StoredAgent): void {
  if (a._.tokenHash) emu.db.del('agentTokens', a._.tokenHash)
  if (a._.deviceCode) emu.db.del('agentDeviceCodes', a._.deviceCode)
  emu.db.del('agents', a.id)
}

export function deviceCodeOf(emu: SandboxContext, code: string): DeviceCode {
  const dc = emu.db.get<DeviceCode>('agentDeviceCodes', code)
  if (!dc || !emu.db.get('agents', dc.agentId)) throw notFound('NOT_FOUND', `Device code ${code}`)
  return dc
}

/** POST /agents/device-codes/{code}/redeem (no platform credentials): the agent's Bearer token, once. */
export function redeemDeviceCode(emu: SandboxContext, code: string) {
  const dc = deviceCodeOf(emu, code)
  if (dc.redeemed)
    throw invalid([{field: 'code', message: 'was redeemed already; ask the platform for a new device code'}])
  if (Date.parse(dc.expiresAt) <= emu.now())
    throw invalid([{field: 'code', message: `expired at ${dc.expiresAt}; ask the platform for a new device code`}])
  const a = getAgent(emu, dc.agentId)
  const accessToken = `agt_${randomBytes(32).toString('base64url')}`
  if (a._.tokenHash) emu.db.del('agentTokens', a._.tokenHash)
  const tokenHash = sha256(accessToken)
  emu.db.put('agentTokens', tokenHash, {agentId: a.id, createdAt: emu.iso()})
  emu.db.put('agentDeviceCodes', dc.code, {...dc, redeemed: true})
  const saved = saveAgent(emu, {...a, isConnected: true, _: {...a._, tokenHash}})
  return {agentId: saved.id, agentName: saved.name, accessToken, policy: saved.policy}
}
