import {randomBytes} from 'node:crypto'
import {invitationClaimRequest, invitationCreateRequest} from '../../lib/schemas/invitations.js'
import type {SandboxContext} from '../context.js'
import {badRequest, notFound, validate} from '../http-error.js'
import {activeByUmaAddress} from '../store/customers.js'
import {currencyObject} from './internal-accounts.js'

export interface StoredInvitation {
  id: string
  code: string
  createdAt: string
  url: string
  inviterUma: string
  status: 'PENDING' | 'CLAIMED' | 'EXPIRED' | 'CANCELLED'
  firstName?: string
  amountToSend?: {amount: number; currency: ReturnType<typeof currencyObject>}
  expiresAt?: string
  claimedAt?: string
  inviteeUma?: string
  cancelledAt?: string
}

/** A platform without invitations (sandbox setting `invitationsEnabled: false`) answers INVITATIONS_NOT_CONFIGURED. */
function requireConfigured(ctx: SandboxContext): void {
  if (ctx.settings().invitationsEnabled === false) {
    throw badRequest(
      'INVITATIONS_NOT_CONFIGURED',
      'Invitations are not configured for this platform (sandbox: PATCH /config {"sandbox": {"invitationsEnabled": true}})',
    )
  }
}

/** The stored invitation with its status as of now: a PENDING one past expiresAt reads EXPIRED. */
function current(ctx: SandboxContext, inv: StoredInvitation): StoredInvitation {
  if (inv.status === 'PENDING' && inv.expiresAt && Date.parse(inv.expiresAt) <= ctx.now())
    return {...inv, status: 'EXPIRED'}
  return inv
}

export function view(inv: StoredInvitation) {
  const {id: _id, cancelledAt: _c, ...rest} = inv
  return rest
}

export function getInvitation(ctx: SandboxContext, code: string): StoredInvitation {
  requireConfigured(ctx)
  const inv = ctx.db.get<StoredInvitation>('invitations', code)
  if (!inv) throw notFound('INVITATION_NOT_FOUND', `Invitation ${code}`)
  return current(ctx, inv)
}

export function createInvitation(ctx: SandboxContext, body: unknown): StoredInvitation {
  requireConfigured(ctx)
  const input = validate(invitationCreateRequest, body)
  if (input.expiresAt && Date.parse(input.expiresAt) <= ctx.now())
    throw badRequest('INVALID_INPUT', 'Invalid input: expiresAt', {
      errors: [{field: 'expiresAt', message: 'must be in the future'}],
    })
  const inviter = activeByUmaAddress(ctx.db, input.inviterUma)
  if (!inviter) throw badRequest('INVALID_UMA_ADDRESS', `No customer of this platform holds ${input.inviterUma}`)
  const code = randomBytes(6).toString('hex')
  const currency = inviter.currencies?.[0] ?? 'USD'
  const inv: StoredInvitation = {
    id: code,
    code,
    createdAt: ctx.iso(),
    url: `https://${ctx.config().umaDomain}/i/${code}`,
    inviterUma: input.inviterUma,
    status: 'PENDING',
    ...(input.firstName ? {firstName: input.firstName} : {}),
    ...(input.amountToSend ? {amountToSend: {amount: input.amountToSend, currency: currencyObject(currency)}} : {}),
    ...(input.expiresAt ? {expiresAt: new Date(input.expiresAt).toISOString()} : {}),
  }
  return ctx.db.put('invitations', code, inv)
}

// The spec names no code for it; the invitation's EXPIRED status does exist (openapi UmaInvitation).
const expired = (inv: StoredInvitation) =>
  badRequest('INVITATION_EXPIRED', `Invitation ${inv.code} expired at ${inv.expiresAt}`, {expiresAt: inv.expiresAt})

/** Claim: PENDING -> CLAIMED once; a claimed, cancelled or expired one refuses (400, spec 7). */
export function claimInvitation(ctx: SandboxContext, code: string, body: unknown): StoredInvitation {
  const inv = getInvitation(ctx, code)
  const input = validate(invitationClaimRequest, body)
  if (inv.status === 'CLAIMED')
    throw badRequest(
      'INVITATION_ALREADY_CLAIMED',
      `Invitation ${code} was claimed at ${inv.claimedAt} by ${inv.inviteeUma}`,
    )
  if (inv.status === 'CANCELLED') throw badRequest('INVITATION_CANCELLED', `Invitation ${code} was cancelled`)
  if (inv.status === 'EXPIRED') throw expired(inv)
  if (input.inviteeUma === inv.inviterUma) throw badRequest('SELF_PAYMENT', 'The invitee cannot be the inviter')
  const claimed: StoredInvitation = {...inv, status: 'CLAIMED', claimedAt: ctx.iso(), inviteeUma: input.inviteeUma}
  ctx.db.put('invitations', code, claimed)
  ctx.webhooks.emit('INVITATION.CLAIMED', view(claimed))
  return claimed
}

/** Cancel: only a PENDING invitation; a claimed or cancelled one answers with its own code. */
export function cancelInvitation(ctx: SandboxContext, code: string): StoredInvitation {
  const inv = getInvitation(ctx, code)
  if (inv.status === 'CLAIMED')
    throw badRequest('INVITATION_ALREADY_CLAIMED', `Invitation ${code} was claimed already and cannot be cancelled`)
  if (inv.status === 'CANCELLED') throw badRequest('INVITATION_CANCELLED', `Invitation ${code} was cancelled already`)
  if (inv.status === 'EXPIRED') throw expired(inv)
  return ctx.db.put('invitations', code, {...inv, status: 'CANCELLED', cancelledAt: ctx.iso()})
}
