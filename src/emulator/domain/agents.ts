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
import {authorizeGrant} from '../authz/agent-grants.js'
import {getCustomer} from './customers.js'
import {rateTable} from './rates.js'
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

export function getAgent(ctx: SandboxContext, id: string): StoredAgent {
  const a = ctx.db.get<StoredAgent>('agents', id)
  if (!a) throw notFound('NOT_FOUND', `Agent ${id}`)
  return a
}

export function saveAgent(ctx: SandboxContext, a: StoredAgent): StoredAgent {
  return ctx.db.put('agents', a.id, {...a, updatedAt: ctx.iso()})
}

function freshUsage(ctx: SandboxContext): StoredAgent['usage'] {
  const today = ctx.iso().slice(0, 10)
  return {
    dailyTransactionCount: 0,
    dailySpend: 0,
    dailyResetDate: today,
    monthlySpend: 0,
    monthlyResetMonth: today.slice(0, 7),
  }
}

/** Usage counters roll over at the UTC day and month. */
export function currentUsage(ctx: SandboxContext, a: StoredAgent): StoredAgent['usage'] {
  const today = ctx.iso().slice(0, 10)
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

/**
 * Limits and thresholds are converted at the sandbox's rate when an action is checked, so each
 * currency they are in must have one (refused here, naming the field, rather than at every action).
 */
function requireRates(ctx: SandboxContext, policy: AgentPolicy, prefix: string): void {
  const table = rateTable(ctx)
  const named: Array<[string, string | undefined]> = [
    ['spendingLimits.currency', policy.spendingLimits.currency],
    ['approvalThresholds.currency', policy.approvalThresholds?.currency],
  ]
  const errors = named
    .filter(([, code]) => code !== undefined && !table[code])
    .map(([field, code]) => ({
      field: prefix + field,
      message: `${code} has no exchange rate in this sandbox, so amounts in other currencies could not be compared with it`,
    }))
  if (errors.length) throw invalid(errors)
}

/**
 * POST /agents/{id}/device-codes: a new code, which hands the agent's payments to whoever redeems
 * it; for an agent that may move money the caller becomes its grant (authz/agent-grants.ts).
 */
export function regenerateDeviceCode(ctx: SandboxContext, a: StoredAgent): DeviceCode {
  const grant = authorizeGrant(ctx, 'regenerateAgentDeviceCode', a, a.policy)
  return issueDeviceCode(ctx, grant ? saveAgent(ctx, {...a, _: {...a._, grant}}) : a)
}

/** A new device code for the agent; an earlier unredeemed code stops working. */
function issueDeviceCode(ctx: SandboxContext, a: StoredAgent): DeviceCode {
  if (a._.deviceCode) {
    const old = ctx.db.get<DeviceCode>('agentDeviceCodes', a._.deviceCode)
    if (old && !old.redeemed) ctx.db.del('agentDeviceCodes', old.code)
  }
  const dc: DeviceCode = {
    code: newDeviceCode(),
    agentId: a.id,
    expiresAt: ctx.iso(ctx.now() + ctx.settings().agentDeviceCodeTtlMs),
    redeemed: false,
  }
  ctx.db.put('agentDeviceCodes', dc.code, dc)
  saveAgent(ctx, {...a, _: {...a._, deviceCode: dc.code}})
  return dc
}

export function createAgent(ctx: SandboxContext, input: z.infer<typeof agentCreateRequest>) {
  const customer = getCustomer(ctx, input.customerId)
  requireRates(ctx, input.policy, 'policy.')
  const grant = authorizeGrant(ctx, 'createAgent', undefined, input.policy)
  const now = ctx.iso()
  const agent: StoredAgent = {
    id: newId('Agent'),
    name: input.name,
    customerId: customer.id,
    isPaused: false,
    isConnected: false,
    policy: input.policy,
    usage: freshUsage(ctx),
    createdAt: now,
    updatedAt: now,
    _: grant ? {grant} : {},
  }
  ctx.db.put('agents', agent.id, agent)
  const deviceCode = issueDeviceCode(ctx, agent)
  return {agent: publicAgent(getAgent(ctx, agent.id)), deviceCode}
}

export function updateAgent(
  ctx: SandboxContext,
  a: StoredAgent,
  patch: z.infer<typeof agentUpdateRequest>,
): StoredAgent {
  return saveAgent(ctx, {
    ...a,
    ...(patch.name !== undefined ? {name: patch.name} : {}),
    ...(patch.isPaused !== undefined ? {isPaused: patch.isPaused} : {}),
  })
}

export function updatePolicy(
  ctx: SandboxContext,
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
  requireRates(ctx, policy, '')
  // Narrowing keeps the agent's grant; widening a money-moving agent makes the caller its grant.
  const grant = authorizeGrant(ctx, 'updateAgentPolicy', a, policy) ?? a._.grant
  return saveAgent(ctx, {...a, policy, _: {...a._, ...(grant ? {grant} : {})}})
}

export function deleteAgent(ctx: SandboxContext, a: StoredAgent): void {
  if (a._.tokenHash) ctx.db.del('agentTokens', a._.tokenHash)
  if (a._.deviceCode) ctx.db.del('agentDeviceCodes', a._.deviceCode)
  ctx.db.del('agents', a.id)
}

export function deviceCodeOf(ctx: SandboxContext, code: string): DeviceCode {
  const dc = ctx.db.get<DeviceCode>('agentDeviceCodes', code)
  if (!dc || !ctx.db.get('agents', dc.agentId)) throw notFound('NOT_FOUND', `Device code ${code}`)
  return dc
}

/** POST /agents/device-codes/{code}/redeem (no platform credentials): the agent's Bearer token, once. */
export function redeemDeviceCode(ctx: SandboxContext, code: string) {
  const dc = deviceCodeOf(ctx, code)
  if (dc.redeemed)
    throw invalid([{field: 'code', message: 'was redeemed already; ask the platform for a new device code'}])
  if (Date.parse(dc.expiresAt) <= ctx.now())
    throw invalid([{field: 'code', message: `expired at ${dc.expiresAt}; ask the platform for a new device code`}])
  const a = getAgent(ctx, dc.agentId)
  const accessToken = `agt_${randomBytes(32).toString('base64url')}`
  if (a._.tokenHash) ctx.db.del('agentTokens', a._.tokenHash)
  const tokenHash = sha256(accessToken)
  ctx.db.put('agentTokens', tokenHash, {agentId: a.id, createdAt: ctx.iso()})
  ctx.db.put('agentDeviceCodes', dc.code, {...dc, redeemed: true})
  const saved = saveAgent(ctx, {...a, isConnected: true, _: {...a._, tokenHash}})
  return {agentId: saved.id, agentName: saved.name, accessToken, policy: saved.policy}
}
