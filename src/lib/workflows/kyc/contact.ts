import {confirmContactCode, sendContactCode, type Channel} from '../../api/kyc.js'
import type {Context} from '../../context.js'
import {ApiError, SvcError} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {canPrompt, promptSecret, requireFlags} from '../../prompts.js'
import {confirmCodeRequest} from '../../schemas/kyc.js'
import {checkWith} from '../../validate.js'

/** A 409 from a contact-verification endpoint means "not for this customer": say so plainly. */
function explain409(e: unknown, customerId: string, channel: Channel): never {
  if (e instanceof ApiError && e.status === 409) {
    const already = /already VERIFIED/i.test(e.message)
    throw new SvcError({
      code: e.code,
      status: 409,
      exitCode: ExitCode.CONFLICT,
      details: e.details,
      message: already
        ? `The ${channel} of ${customerId} is already VERIFIED`
        : `This customer's provider does not require ${channel} verification (${e.message})`,
      hint: already
        ? `Nothing to do; \`svc kyc link ${customerId}\` works once every channel is VERIFIED.`
        : 'Only customers whose provider mandates it (e.g. EU regions) carry contactVerification; see `svc kyc status`.',
    })
  }
  throw e
}

export async function sendCode(
  ctx: Context,
  customerId: string,
  channel: Channel,
  req = sendContactCode(customerId, channel),
): Promise<void> {
  await ctx.client.call(req).catch((e) => explain409(e, customerId, channel))
}

/**
 * The confirm request. The code comes from --code, or a hidden prompt on a terminal; it is never
 * echoed or traced. A dry run asks for nothing: the code is shown redacted whatever it is.
 */
export async function confirmCodeRequestFor(
  ctx: Context,
  customerId: string,
  channel: Channel,
  given: string | undefined,
  opts: {dryRun?: boolean} = {},
) {
  let code = given
  if (code === undefined) {
    if (opts.dryRun) return confirmContactCode(customerId, channel, '[REDACTED]')
    if (!canPrompt(ctx.env)) requireFlags(['code'])
    code = await promptSecret(`Code sent to the customer's ${channel}`, {
      onAbort: `the code was not submitted; \`svc kyc confirm-${channel} ${customerId} --code <code>\` submits it later`,
    })
  }
  const body = checkWith(confirmCodeRequest, {code: code.trim()})
  return confirmContactCode(customerId, channel, body.code)
}

export async function confirmCode(
  ctx: Context,
  customerId: string,
  channel: Channel,
  req: ReturnType<typeof confirmContactCode>,
) {
  return ctx.client.call(req).catch((e) => explain409(e, customerId, channel))
}
