import {cancelInvitation, claimInvitation, createInvitation, getInvitation, view} from '../domain/invitations.js'
import type {Emulator} from '../emulator.js'
import type {Router} from '../router.js'

/** UMA invitations (openapi /invitations): create, get, claim, cancel. */
export function registerInvitations(router: Router, emu: Emulator): void {
  router.post('/invitations', (req) => ({status: 201, body: view(createInvitation(emu, req.body))}))
  router.get('/invitations/:code', (req) => ({status: 200, body: view(getInvitation(emu, req.params.code))}))
  router.post('/invitations/:code/claim', (req) => ({status: 200, body: view(claimInvitation(emu, req.params.code, req.body))}))
  router.post('/invitations/:code/cancel', (req) => ({status: 200, body: view(cancelInvitation(emu, req.params.code))}))
}
