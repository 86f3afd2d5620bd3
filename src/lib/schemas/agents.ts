import * as z from 'zod'
import {idOf} from './ids.js'

/** Agents (api-gaps: agent-action webhooks; openapi AgentPolicy): shared by the client and the sandbox. */
export const agentId = idOf('Agent')
export const agentActionId = idOf('AgentAction')
export const AGENT_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
] as const
export const EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const
export const ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const

const currency = z.string().regex(/^[A-Z]{3,5}$/, {message: 'must be a currency code (USD)'})
const minor = z.number().int().min(0).max(9e15)

const spendingLimits = z.strictObject({
  currency,
  perTransactionLimit: minor,
  dailyLimit: minor.nullable().optional(),
  dailyTransactionLimit: z.number().int().min(0).max(1_000_000).optional(),
  monthlyLimit: minor.nullable().optional(),
})

const accountRestrictions = z.strictObject({
  allowedAccountIds: z.array(z.string().min(1).max(200)).max(100).nullable().optional(),
  accountRules: z
    .array(
      z.strictObject({
        accountId: z.string().min(1).max(200),
        executionMode: z.enum(EXECUTION_MODES).optional(),
        perTransactionLimit: minor.nullable().optional(),
      }),
    )
    .max(100)
    .optional(),
})

// "currency: Required when amount is set": a threshold with no currency would be read in whatever the limits are in.
const approvalThresholds = z
  .strictObject({currency: currency.optional(), amount: minor.nullable().optional()})
  .superRefine((t, c) => {
    if (t.amount != null && t.currency === undefined)
      c.addIssue({code: 'custom', path: ['currency'], message: 'is required when amount is set'})
  })

export const agentPolicy = z.strictObject({
  permissions: z.array(z.enum(AGENT_PERMISSIONS)).max(5),
  defaultExecutionMode: z.enum(EXECUTION_MODES),
  spendingLimits,
  accountRestrictions: accountRestrictions.optional(),
  approvalThresholds: approvalThresholds.optional(),
})
export type AgentPolicy = z.infer<typeof agentPolicy>

export const agentCreateRequest = z.strictObject({
  name: z.string().min(1).max(100),
  customerId: idOf('Customer'),
  policy: agentPolicy,
})
export const agentUpdateRequest = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  isPaused: z.boolean().optional(),
})
export const agentPolicyUpdateRequest = z.strictObject({
  permissions: agentPolicy.shape.permissions.optional(),
  defaultExecutionMode: agentPolicy.shape.defaultExecutionMode.optional(),
  spendingLimits: spendingLimits.partial().optional(),
  accountRestrictions: accountRestrictions.optional(),
  approvalThresholds: approvalThresholds.optional(),
})
export const agentActionRejectRequest = z.strictObject({reason: z.string().max(500).optional()})

const dateTimeQ = z.iso.datetime({offset: true})
const boolQ = z.enum(['true', 'false'])
export const agentListQuery = z.strictObject({
  customerId: idOf('Customer').optional(),
  isPaused: boolQ.optional(),
  isConnected: boolQ.optional(),
  createdAfter: dateTimeQ.optional(),
  createdBefore: dateTimeQ.optional(),
  updatedAfter: dateTimeQ.optional(),
  updatedBefore: dateTimeQ.optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})
export const approvalListQuery = z.strictObject({
  agentId: agentId.optional(),
  customerId: idOf('Customer').optional(),
  startDate: dateTimeQ.optional(),
  endDate: dateTimeQ.optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})
export const agentActionListQuery = z.strictObject({
  status: z.enum(ACTION_STATUSES).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

/** Device codes are shown to a person and typed on the agent's machine: 8 letters/digits in two groups. */
export const deviceCode = z
  .string()
  .regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/, {message: 'must be a device code like ABCD-1234'})

// Answers (loose).
export const agentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  customerId: z.string(),
  isPaused: z.boolean(),
  isConnected: z.boolean(),
  policy: z.looseObject({}),
})
export const deviceCodeSchema = z.looseObject({
  code: z.string(),
  agentId: z.string(),
  expiresAt: z.string(),
  redeemed: z.boolean(),
})
export const agentCreateResponse = z.looseObject({agent: agentSchema, deviceCode: deviceCodeSchema})
export const deviceCodeStatus = z.looseObject({code: z.string(), redeemed: z.boolean()})
export const redeemResponse = z.looseObject({
  agentId: z.string(),
  agentName: z.string(),
  accessToken: z.string().min(1),
})
export const agentActionSchema = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  status: z.string(),
  type: z.string(),
  rejectionReason: z.string().optional(),
  transaction: z.looseObject({id: z.string(), status: z.string()}).optional(),
})
