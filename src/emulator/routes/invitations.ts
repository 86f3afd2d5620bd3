import {cancelInvitation, claimInvitation, createInvitation, getInvitation, view} from '../domain/invitations.js'
import type {Router} from '../router.js'

/** UMA invitations (openapi /invitations): create, get, claim, cancel. */
export function registerInvitations(router: Router): void {
  router.post('/invitations', (req, emu) => ({status: 201, body: view(createInvitation(emu, req.body))}))
  router.get('/invitations/:code', (req, emu) => ({status: 200, body: view(getInvitation(emu, req.params.code))}))
  router.post('/invitations/:code/claim', (req, emu) => ({
    status: 200,
    body: view(claimInvitation(emu, req.params.code, req.body)),
  }))
  router.post('/invitations/:code/cancel', (req, emu) => ({
    status: 200,
    body: view(cancelInvitation(emu, req.params.code)),
  }))
}
