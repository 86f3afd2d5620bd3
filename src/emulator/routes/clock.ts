import {clockAdvanceRequest, clockResetRequest} from '../../lib/schemas/clock.js'
import {advanceClock, clockView, freezeClock, resetClock, unfreezeClock} from '../domain/clock.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** The sandbox's own clock (issue 22): read it, freeze it, move it on, put it back on real time. */
export function registerClock(router: Router): void {
  router.get('/sandbox/clock', (_req, emu) => ({status: 200, body: clockView(emu)}))
  // Outside a unit: every job the advance runs is a unit of its own, committed before the next.
  router.post(
    '/sandbox/clock/advance',
    async (req, emu) => ({status: 200, body: await advanceClock(emu, validate(clockAdvanceRequest, req.body ?? {}))}),
    {unit: false},
  )
  router.post('/sandbox/clock/freeze', (_req, emu) => ({status: 200, body: freezeClock(emu)}))
  router.post('/sandbox/clock/unfreeze', (_req, emu) => ({status: 200, body: unfreezeClock(emu)}))
  router.post('/sandbox/clock/reset', (req, emu) => ({
    status: 200,
    body: resetClock(emu, validate(clockResetRequest, req.body ?? {}).force),
  }))
}
