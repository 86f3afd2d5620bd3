import {authorizeQuote, completeLogin, startLogin} from '../../api/sca.js'
import type {Context} from '../../context.js'
import {ApiError, InputError, SvcError} from '../../errors.js'
import {canPrompt, promptConfirm, promptSecret} from '../../prompts.js'
import type {Quote} from '../../schemas/quotes.js'
import {scaCode} from '../../schemas/sca.js'

/** SCA_SESSION_REQUIRED, explained: which customer, and the two commands that open a session. */
export function explainSessionRequired(e: ApiError): SvcError {
  const customerId = String(e.details?.customerId ?? '<customerId>')
  return new SvcError({
    code: e.code,
    status: e.status,
    exitCode: e.exitCode,
    details: e.details,
    message: `${e.message}`,
    hint: `This platform requires strong customer authentication. Log the customer in (a 180-day session), then run the same command again: \`svc sca login start ${customerId}\`, then \`svc sca login complete ${customerId} --challenge-id <id> --code -\`.`,
  })
}

async function askCode(question: string): Promise<string> {
  const code = (await promptSecret(question)).trim()
  if (!scaCode.safeParse(code).success) throw new InputError([{field: 'code', message: 'must be the 6-digit code'}])
  return code
}

/** On a TTY: offers the SMS login for the customer; true when a session was opened. */
export async function offerScaLogin(ctx: Context, e: ApiError): Promise<boolean> {
  const customerId = e.details?.customerId
  if (typeof customerId !== 'string' || !canPrompt(ctx.env)) return false
  ctx.out.warn(`${customerId} needs an SCA session before money moves.`)
  if (!(await promptConfirm('Send the customer an SMS code and log them in now?', true))) return false
  const started = await ctx.client.call(startLogin(customerId, 'SMS_OTP'))
  const code = await askCode('SCA code the customer received')
  const session = await ctx.client.call(
    completeLogin(customerId, {
      factor: 'SMS_OTP',
      challengeId: started.challengeId,
      code,
      endUserIpAddress: '127.0.0.1',
    }),
  )
  ctx.out.success(`SCA session open until ${session.sessionExpiresAt}`)
  return true
}

/** A quote held in PENDING_AUTHORIZATION: explained, and authorized on a TTY when the code is given. */
export async function handleHeldQuote(ctx: Context, q: Quote): Promise<Quote> {
  const challenge = q.scaChallenge as {factor?: string; expiresAt?: string} | undefined
  const outcome =
    q.source.sourceType === 'REALTIME_FUNDING'
      ? 'its payment instructions come once authorized'
      : 'unauthorized, the payment fails with SCA_NOT_COMPLETED'
  ctx.out.warn(
    `${q.id} waits for the customer's SCA authorization (${challenge?.factor ?? 'SMS_OTP'} code, until ${challenge?.expiresAt ?? 'the challenge expires'}); ${outcome}.`,
  )
  if (!canPrompt(ctx.env)) {
    ctx.out.info(ctx.out.dim(`Authorize it: svc quote authorize ${q.id} --code -   (resend the code: --resend)`))
    return q
  }
  const code = await askCode('SCA code the customer received')
  const authorized = await ctx.client.call(authorizeQuote(q.id, {code, endUserIpAddress: '127.0.0.1'}))
  ctx.out.success(`Authorized ${authorized.id}: ${authorized.status}`)
  return authorized
}
