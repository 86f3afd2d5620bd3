import {type AuthzEntry, READ, MANAGE, op} from './build.js'

/** Invitations: a customer's UMA invitations are the customer's affairs. */
export const INVITATIONS: readonly AuthzEntry[] = [
  op('POST', '/invitations', 'createInvitation', MANAGE),
  op('GET', '/invitations/{invitationCode}', 'getInvitation', READ),
  op('POST', '/invitations/{invitationCode}/claim', 'claimInvitation', MANAGE),
  op('POST', '/invitations/{invitationCode}/cancel', 'cancelInvitation', MANAGE),
]
