import type {Invitation} from '../schemas/invitations.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'

export function renderInvitation(out: Output, inv: Invitation): void {
  const amount = inv.amountToSend as {amount?: number; currency?: {code?: string}} | undefined
  renderKeyValue(out, [
    ['code', inv.code],
    ['status', inv.status],
    ['url', inv.url],
    ['inviter', inv.inviterUma],
    ['invitee', inv.inviteeUma],
    ['firstName', inv.firstName],
    [
      'amountToSend',
      amount?.amount !== undefined ? `${amount.amount} ${amount.currency?.code ?? ''} (smallest units)` : undefined,
    ],
    ['expires', inv.expiresAt],
    ['claimed', inv.claimedAt],
  ])
}
