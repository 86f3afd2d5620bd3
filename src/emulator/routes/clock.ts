import {clockAdvanceRequest, clockResetRequest} from '../../lib/schemas/clock.js'
import {advanceClock, clockView, freezeClock, resetClock, unfreezeClock} from '../domain/clock.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** The sandbox's own clock (issue 22): read it, freeze it, move it on, put it back on real time. */
export function registerClock(router: Router): void {
  router.handle('GET /sandbox/clock', (_req, ctx) => ({status: 200, body: clockView(ctx)}))
  // Outside a unit: every job the advance runs is a unit of its own, committed before the next.
  router.handle('POST /sandbox/clock/advance', async (req, ctx) => ({
    status: 200,
    body: await advanceClock(ctx, validate(clockAdvanceRequest, req.body ?? {})),
  }))
  router.handle('POST /sandbox/clock/freeze', (_req, ctx) => ({status: 200, body: freezeClock(ctx)}))
  router.handle('POST /sandbox/clock/unfreeze', (_req, ctx) => ({status: 200, body: unfreezeClock(ctx)}))
  router.handle('POST /sandbox/clock/reset', (req, ctx) => ({
    status: 200,
    body: resetClock(ctx, validate(clockResetRequest, req.body ?? {}).force),
  }))
}
