import {createHash, randomBytes} from 'node:crypto'
import {canonicalJson} from '../api/planned.js'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import type {ToolArguments} from './arguments.js'

export const PLAN_TTL_MS = 5 * 60_000

export interface Plan {
  token: string
  tool: string
  /** Digest of the tool and its arguments: a confirmation must carry the same. */
  argsDigest: string
  /** Digests of the writes the dry run showed: the confirmed run may send these and nothing else. */
  requests: string[]
  idempotencyKey: string
  expiresAt: number
  used: boolean
}

/**
 * Plans the server made, in memory only (a restart forgets them: plan again). A token is random,
 * bound to one tool, its exact arguments, the requests its dry run showed and their
 * Idempotency-Key; it expires and is used up by its first confirmation, good or refused, so it can
 * neither be replayed nor probed. Clock and randomness are injected for tests.
 */
export class PlanStore {
  private readonly plans = new Map<string, Plan>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: (bytes: number) => Buffer = randomBytes,
    readonly ttlMs = PLAN_TTL_MS,
  ) {}

  /** A fresh Idempotency-Key for a plan: its dry run and its confirmed run both send it. */
  newKey(): string {
    return `mcp-${this.random(16).toString('hex')}`
  }

  add(tool: string, args: ToolArguments, requests: string[], idempotencyKey: string): Plan {
    this.prune()
    const plan: Plan = {
      token: `plan_${this.random(24).toString('base64url')}`,
      tool,
      argsDigest: argsDigest(tool, args),
      requests,
      idempotencyKey,
      expiresAt: this.now() + this.ttlMs,
      used: false,
    }
    this.plans.set(plan.token, plan)
    return plan
  }

  /** The plan a confirmation names, used up here whatever the outcome; refused unless it is this call's, unused and current. */
  take(tool: string, args: ToolArguments, token: string): Plan {
    const plan = this.plans.get(token)
    if (!plan) throw refusal('PLAN_UNKNOWN', 'No such plan: the token was not issued by this server (or it restarted)')
    if (plan.used) throw refusal('PLAN_USED', 'This plan was already confirmed or refused once; a plan is single-use')
    plan.used = true
    if (this.now() > plan.expiresAt) throw refusal('PLAN_EXPIRED', 'This plan has expired')
    if (plan.tool !== tool) throw refusal('PLAN_OTHER_TOOL', `This plan is for ${plan.tool}, not ${tool}`)
    if (plan.argsDigest !== argsDigest(tool, args))
      throw refusal('PLAN_ARGS_CHANGED', 'The arguments differ from the ones that were planned')
    return plan
  }

  private prune(): void {
    // A used or expired plan is kept a little longer, so its replay is named as such rather than unknown.
    const cutoff = this.now() - this.ttlMs
    for (const [token, plan] of this.plans) if (plan.expiresAt < cutoff) this.plans.delete(token)
  }
}

function argsDigest(tool: string, args: ToolArguments): string {
  return createHash('sha256').update(canonicalJson({tool, args})).digest('hex')
}

function refusal(code: string, message: string): SvcError {
  return new SvcError({
    code,
    exitCode: ExitCode.USAGE,
    message: `${message}; nothing was sent`,
    hint: 'Call the tool without `confirm` for a new plan, show it to the person, and confirm that one.',
  })
}
