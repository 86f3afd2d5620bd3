import {cancelInvitation, claimInvitation, createInvitation, getInvitation, view} from '../domain/invitations.js'
import type {Router} from '../router.js'

/** UMA invitations (openapi /invitations): create, get, claim, cancel. */
export function registerInvitations(router: Router): void {
  router.post('/invitations', (req, ctx) => ({status: 201, body: view(createInvitation(ctx, req.body))}))
  router.get('/invitations/:code', (req, ctx) => ({status: 200, body: view(getInvitation(ctx, req.params.code))}))
  router.post('/invitations/:code/claim', (req, ctx) => ({
    status: 200,
    body: view(claimInvitation(ctx, req.params.code, req.body)),
  }))
  router.post('/invitations/:code/cancel', (req, ctx) => ({
    status: 200,
    body: view(cancelInvitation(ctx, req.params.code)),
  }))
}
