import {clockAdvanceSchema, clockSchema, type ClockAdvanceRequest} from '../schemas/clock.js'
import {apiRequest} from './request.js'

/** The sandbox clock (a local sandbox's own routes, /sandbox/clock). */
export function getClock() {
  return apiRequest({method: 'GET', path: ['sandbox', 'clock']}, clockSchema, 'sandbox clock')
}

export function advanceClock(body: ClockAdvanceRequest) {
  return apiRequest({method: 'POST', path: ['sandbox', 'clock', 'advance'], body}, clockAdvanceSchema, 'clock advance')
}

export function setClock(action: 'freeze' | 'unfreeze' | 'reset', body: {force?: boolean} = {}) {
  return apiRequest({method: 'POST', path: ['sandbox', 'clock', action], body}, clockSchema, 'sandbox clock')
}
