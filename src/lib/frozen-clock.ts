import {getClock} from './api/clock.js'
import type {Context} from './context.js'
import {SvcError} from './errors.js'

/**
 * A wait that ran out (TIMEOUT, exit 8) against a sandbox whose clock is frozen: nothing scheduled
 * (KYC decisions, settlement, expiries) happens until the clock moves, so the hint says so and how
 * to move it. Best effort: one GET /sandbox/clock, and any failure leaves the error as it was.
 * Called by the waits themselves (kyc wait, quote wait), not by every command: it brings the clock's
 * schema, which the small bundles should not carry.
 */
export async function explainFrozenClock(ctx: Context, error: SvcError): Promise<SvcError> {
  try {
    if (ctx.profile.environment === 'production') return error
    const clock = await ctx.client.call(getClock())
    if (clock.mode !== 'frozen') return error
    const frozen = `The sandbox clock is frozen at ${clock.now}: nothing scheduled happens until it moves (\`svc sandbox clock advance <duration>\` or \`svc sandbox clock unfreeze\`).`
    return new SvcError({
      code: error.code,
      message: error.message,
      exitCode: error.exitCode,
      status: error.status,
      details: error.details,
      hint: error.hint ? `${frozen} ${error.hint}` : frozen,
    })
  } catch {
    return error
  }
}
