import {invitation, type InvitationCreateRequest} from '../schemas/invitations.js'
import {apiRequest} from './request.js'

/** UMA invitations (openapi /invitations). */
export function createInvitation(body: InvitationCreateRequest) {
  return apiRequest({method: 'POST', path: ['invitations'], body}, invitation, 'invitation')
}

export function getInvitation(code: string) {
  return apiRequest({method: 'GET', path: ['invitations', code]}, invitation, 'invitation')
}

export function claimInvitation(code: string, inviteeUma: string) {
  return apiRequest(
    {method: 'POST', path: ['invitations', code, 'claim'], body: {inviteeUma}},
    invitation,
    'invitation',
  )
}

export function cancelInvitation(code: string) {
  return apiRequest({method: 'POST', path: ['invitations', code, 'cancel']}, invitation, 'invitation')
}
