import {getClock} from './api/clock.js'
import type {Context} from './context.js'
import type {ErrorDocument} from './errors.js'

/**
 * A wait that ran out (TIMEOUT, exit 8) against a sandbox whose clock is frozen: nothing scheduled
 * (KYC decisions, settlement, expiries) happens until the clock moves, so the hint says so and how
 * to move it. Best effort: one GET /sandbox/clock, and any failure leaves the document as it was.
 */
export async function explainFrozenClock(ctx: Context, doc: ErrorDocument): Promise<ErrorDocument> {
  if (doc.code !== 'TIMEOUT') return doc
  try {
    if (ctx.profile.environment === 'production') return doc
    const clock = await ctx.client.call(getClock())
    if (clock.mode !== 'frozen') return doc
    const frozen = `The sandbox clock is frozen at ${clock.now}: nothing scheduled happens until it moves (\`svc sandbox clock advance <duration>\` or \`svc sandbox clock unfreeze\`).`
    return {...doc, hint: doc.hint ? `${frozen} ${doc.hint}` : frozen}
  } catch {
    return doc
  }
}
