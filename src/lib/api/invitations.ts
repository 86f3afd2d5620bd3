import {invitation, type InvitationCreateRequest} from '../schemas/invitations.js'
import type {ApiClient} from './client.js'

/** UMA invitations (openapi /invitations). */
export async function createInvitation(client: ApiClient, body: InvitationCreateRequest) {
  const res = await client.request({method: 'POST', path: ['invitations'], body})
  return client.parse(invitation, res.body, 'invitation')
}

export async function getInvitation(client: ApiClient, code: string) {
  const res = await client.request({method: 'GET', path: ['invitations', code]})
  return client.parse(invitation, res.body, 'invitation')
}

export async function claimInvitation(client: ApiClient, code: string, inviteeUma: string) {
  const res = await client.request({method: 'POST', path: ['invitations', code, 'claim'], body: {inviteeUma}})
  return client.parse(invitation, res.body, 'invitation')
}

export async function cancelInvitation(client: ApiClient, code: string) {
  const res = await client.request({method: 'POST', path: ['invitations', code, 'cancel'], body: {}})
  return client.parse(invitation, res.body, 'invitation')
}
