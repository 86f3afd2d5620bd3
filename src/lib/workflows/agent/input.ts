import {Flags} from '@oclif/core'
import {currency} from '../../currencies.js'
import {InputError, type FieldError} from '../../errors.js'
import {AGENT_PERMISSIONS, EXECUTION_MODES} from '../../schemas/agents.js'
import {MoneyError, toMinor} from '../../money.js'

/** Policy flags shared by `agents create` and `agents policy`; amounts in real units of --limit-currency. */
export const policyFlags = {
  permission: Flags.string({
    description: 'a permission the agent gets (repeat for several)',
    options: [...AGENT_PERMISSIONS],
    multiple: true,
    multipleNonGreedy: true,
  }),
  mode: Flags.string({
    description: 'defaultExecutionMode: AUTO runs within the limits; APPROVAL_REQUIRED waits for the platform',
    options: [...EXECUTION_MODES],
  }),
  'limit-currency': Flags.string({description: 'currency of the spending limits (USD)'}),
  'per-transaction': Flags.string({
    description: 'per-transaction limit in real units (100.00); above it an action is refused (403)',
  }),
  daily: Flags.string({description: 'daily spending limit in real units'}),
  'daily-count': Flags.integer({description: 'transactions per day', min: 0}),
  monthly: Flags.string({description: 'monthly spending limit in real units'}),
  'approval-threshold': Flags.string({
    description: 'actions at or above this amount (real units of --threshold-currency) always wait for approval',
  }),
  'threshold-currency': Flags.string({
    description: 'currency of --approval-threshold (default: --limit-currency, USD when creating)',
    dependsOn: ['approval-threshold'],
  }),
  'allow-account': Flags.string({
    description: 'restrict the agent to this account (repeat for several)',
    multiple: true,
    multipleNonGreedy: true,
  }),
}

type PolicyFlagValues = {[K in keyof typeof policyFlags]?: unknown}

/** The policy (or policy patch) the flags describe; amounts become minor units, every bad one named. */
export function policyFromFlags(f: PolicyFlagValues, opts: {partial: boolean}): Record<string, unknown> {
  const errors: FieldError[] = []
  const code = (f['limit-currency'] as string | undefined) ?? (opts.partial ? undefined : 'USD')
  const cur = code ? currency(code) : undefined
  if (code && !cur) errors.push({field: 'spendingLimits.currency', message: `"${code}" is not a currency svc knows`})
  const minor = (flag: string, field: string, decimals = cur?.decimals ?? 2): number | undefined => {
    const v = f[flag as keyof PolicyFlagValues] as string | undefined
    if (v === undefined) return undefined
    try {
      return toMinor(v, decimals)
    } catch (e) {
      errors.push({field, message: (e as MoneyError).message})
      return undefined
    }
  }
  const limits: Record<string, unknown> = {
    ...(code ? {currency: code} : {}),
    ...(f['per-transaction'] !== undefined
      ? {perTransactionLimit: minor('per-transaction', 'spendingLimits.perTransactionLimit')}
      : {}),
    ...(f.daily !== undefined ? {dailyLimit: minor('daily', 'spendingLimits.dailyLimit')} : {}),
    ...(f.monthly !== undefined ? {monthlyLimit: minor('monthly', 'spendingLimits.monthlyLimit')} : {}),
    ...(f['daily-count'] !== undefined ? {dailyTransactionLimit: f['daily-count']} : {}),
  }
  if (!opts.partial) {
    if (f['per-transaction'] === undefined)
      errors.push({field: 'spendingLimits.perTransactionLimit', message: 'is required: --per-transaction <amount>'})
    if (!f.permission) errors.push({field: 'permissions', message: 'name at least one --permission'})
  }
  // The contract requires the threshold's currency with its amount; it may differ from the limits'.
  const thresholdCode = (f['threshold-currency'] as string | undefined) ?? code
  const thresholdCur = thresholdCode ? currency(thresholdCode) : undefined
  if (f['approval-threshold'] !== undefined && !thresholdCode)
    errors.push({
      field: 'approvalThresholds.currency',
      message: 'is required with --approval-threshold: add --threshold-currency <code>',
    })
  if (f['threshold-currency'] !== undefined && !thresholdCur)
    errors.push({field: 'approvalThresholds.currency', message: `"${thresholdCode}" is not a currency svc knows`})
  const threshold =
    f['approval-threshold'] !== undefined
      ? minor('approval-threshold', 'approvalThresholds.amount', thresholdCur?.decimals ?? 2)
      : undefined
  if (errors.length) throw new InputError(errors)
  return {
    ...(f.permission ? {permissions: f.permission} : {}),
    ...(f.mode || !opts.partial ? {defaultExecutionMode: f.mode ?? 'AUTO'} : {}),
    ...(Object.keys(limits).length ? {spendingLimits: limits} : {}),
    ...(f['allow-account'] ? {accountRestrictions: {allowedAccountIds: f['allow-account']}} : {}),
    ...(threshold !== undefined ? {approvalThresholds: {currency: thresholdCode, amount: threshold}} : {}),
  }
}
