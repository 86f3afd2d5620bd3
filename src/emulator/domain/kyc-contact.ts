import type {SandboxContext} from '../context.js'
import {conflict, invalid} from '../http-error.js'
import {saveCustomer, type StoredCustomer} from './customers.js'

/**
 * Contact verification (spec 3, 4.2; api-gaps 1.1). Nothing is really sent: the sandbox code is
 * always 123456, and each "delivery" is written to the emulator log. A code must have been sent
 * (and not expired) before it can be confirmed; re-sending replaces it.
 */
export const SANDBOX_CONTACT_CODE = '123456'
const CODE_TTL_MS = 10 * 60_000

export type Channel = 'email' | 'phone'

/** Spec 7: contact verification answers 409 when it does not apply; CONFLICT is the contract's code for it (as for SCA). */
function applicable(c: StoredCustomer, channel: Channel): void {
  const state = c.contactVerification?.[channel]
  if (!state) throw conflict('CONFLICT', `This customer's provider does not require ${channel} verification`, {channel})
  if (state === 'VERIFIED')
    throw conflict('CONFLICT', `The ${channel} of ${c.id} is already VERIFIED`, {channel, state})
}

export function sendContactCode(ctx: SandboxContext, c: StoredCustomer, channel: Channel): void {
  applicable(c, channel)
  const to = channel === 'email' ? c.email : c.phoneNumber
  ctx.db.put('contactCodes', `${c.id}|${channel}`, {code: SANDBOX_CONTACT_CODE, to, expiresAt: ctx.now() + CODE_TTL_MS})
  ctx.log(`contact verification: ${channel} code for ${c.id} sent to ${to}: ${SANDBOX_CONTACT_CODE}`)
}

export function confirmContactCode(
  ctx: SandboxContext,
  c: StoredCustomer,
  channel: Channel,
  code: string,
): StoredCustomer {
  applicable(c, channel)
  const key = `${c.id}|${channel}`
  const sent = ctx.db.get<{code: string; to?: string; expiresAt: number}>('contactCodes', key)
  const to = channel === 'email' ? c.email : c.phoneNumber
  if (!sent || sent.to !== to)
    throw invalid([
      {field: 'code', message: `no code was sent to this ${channel}; request one with POST verify-${channel} first`},
    ])
  if (sent.expiresAt < ctx.now())
    throw invalid([{field: 'code', message: `the code expired; request a new one with POST verify-${channel}`}])
  if (sent.code !== code) throw invalid([{field: 'code', message: 'does not match the code that was sent'}])
  ctx.db.del('contactCodes', key)
  return saveCustomer(ctx, {...c, contactVerification: {...c.contactVerification, [channel]: 'VERIFIED'}})
}
