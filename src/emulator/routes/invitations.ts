import {cancelInvitation, claimInvitation, createInvitation, getInvitation, view} from '../domain/invitations.js'
import type {Router} from '../router.js'

/** UMA invitations (openapi /invitations): create, get, claim, cancel. */
export function registerInvitations(router: Router): void {
  router.handle('createInvitation', (req, ctx) => ({status: 201, body: view(createInvitation(ctx, req.body))}))
  router.handle('getInvitation', (req, ctx) => ({
    status: 200,
    body: view(getInvitation(ctx, req.params.invitationCode)),
  }))
  router.handle('claimInvitation', (req, ctx) => ({
    status: 200,
    body: view(claimInvitation(ctx, req.params.invitationCode, req.body)),
  }))
  router.handle('cancelInvitation', (req, ctx) => ({
    status: 200,
    body: view(cancelInvitation(ctx, req.params.invitationCode)),
  }))
}
