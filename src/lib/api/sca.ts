import * as z from 'zod'
import {resetStart, resetStatus, scaFactorList, scaLoginComplete, scaLoginStart, securityState} from '../schemas/sca.js'
import {apiRequest, type ApiRequest, type LazySchema, type ResponseSchema} from './request.js'

// The quote answer of `sca authorize` loads on use: schemas/quotes.ts builds every quote request schema
// too (and pulls in common.ts and uma.ts), which `sca factors list` and the other SCA calls never read.
const quoteSchema = () => import('../schemas/quotes.js').then((m) => m.quoteSchema)

/** A plain 409 CONFLICT on an SCA request means SCA does not apply to the customer: said so. */
const hints = {
  CONFLICT:
    'SCA applies only to customers whose platform requires it (local sandbox: svc api PATCH /config --data \'{"sandbox":{"scaRequired":true}}\').',
}

/** Strong customer authentication calls; every /sca path names its customer in the query. */
function sca<S extends ResponseSchema>(
  req: Omit<ApiRequest, 'response' | 'hints'>,
  schema: S | LazySchema<S>,
  what: string,
) {
  return apiRequest({...req, hints}, schema, what)
}

/** An SCA request whose answer is not read. */
function scaUnread(req: Omit<ApiRequest, 'response' | 'hints'>): ApiRequest<void> {
  return {...req, hints}
}

const enrolment = z.looseObject({type: z.string()})

export function listFactors(customerId: string) {
  return sca({method: 'GET', path: ['sca', 'factors'], query: {customerId}}, scaFactorList, 'SCA factor list')
}

export function startEnrolment(customerId: string, type: 'TOTP' | 'PASSKEY') {
  return sca({method: 'POST', path: ['sca', 'factors'], query: {customerId}, body: {type}}, enrolment, 'SCA enrolment')
}

export function confirmEnrolment(customerId: string, body: Record<string, unknown>) {
  return sca(
    {method: 'POST', path: ['sca', 'factors', 'confirm'], query: {customerId}, body},
    enrolment,
    'SCA enrolment confirmation',
  )
}

export function deleteFactor(customerId: string, credentialId: string) {
  return scaUnread({method: 'DELETE', path: ['sca', 'factors', credentialId], query: {customerId}})
}

export function startLogin(customerId: string, factor: string) {
  return sca(
    {method: 'POST', path: ['sca', 'login', 'start'], query: {customerId}, body: {factor}},
    scaLoginStart,
    'SCA login start',
  )
}

export function completeLogin(customerId: string, body: Record<string, unknown>) {
  return sca(
    {method: 'POST', path: ['sca', 'login', 'complete'], query: {customerId}, body},
    scaLoginComplete,
    'SCA login',
  )
}

export function recordEvent(customerId: string, eventType: string) {
  return sca(
    {method: 'POST', path: ['sca', 'record-event'], query: {customerId}, body: {eventType}},
    securityState,
    'security state',
  )
}

export function startReset(customerId: string, factor: string) {
  return sca(
    {method: 'POST', path: ['sca', 'factors', 'reset'], query: {customerId}, body: {factor}},
    resetStart,
    'factor reset',
  )
}

export function getReset(customerId: string, resetId: string) {
  return sca(
    {method: 'GET', path: ['sca', 'factors', 'reset', resetId], query: {customerId}},
    resetStatus,
    'factor reset',
  )
}

export function completeReset(customerId: string, resetId: string, body: Record<string, unknown>) {
  return scaUnread({
    method: 'POST',
    path: ['sca', 'factors', 'reset', resetId, 'complete'],
    query: {customerId},
    body,
  })
}

export function authorizeQuote(quoteId: string, body: Record<string, unknown>) {
  return sca({method: 'POST', path: ['quotes', quoteId, 'authorize'], body}, quoteSchema, 'quote')
}

export function resendAuthorization(quoteId: string) {
  return scaUnread({method: 'POST', path: ['quotes', quoteId, 'authorize', 'resend']})
}
