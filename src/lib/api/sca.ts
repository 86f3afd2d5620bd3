import {z} from 'zod'
import {quoteSchema} from '../schemas/quotes.js'
import {resetStart, resetStatus, scaFactorList, scaLoginComplete, scaLoginStart, securityState} from '../schemas/sca.js'
import {ApiError, SvcError} from '../errors.js'
import type {ApiClient, RequestOptions} from './client.js'

/** Strong customer authentication calls; every /sca path names its customer in the query. */
const q = (customerId: string) => ({customerId})

/** One SCA request; a plain 409 CONFLICT here means SCA does not apply to the customer, said so. */
async function send(client: ApiClient, req: RequestOptions) {
  try {
    return await client.request(req)
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'CONFLICT') throw e
    throw new SvcError({
      code: e.code,
      status: e.status,
      exitCode: e.exitCode,
      details: e.details,
      message: e.message,
      hint: 'SCA applies only to customers whose platform requires it (local sandbox: svc api PATCH /config --data \'{"sandbox":{"scaRequired":true}}\').',
    })
  }
}

export async function listFactors(client: ApiClient, customerId: string) {
  const res = await send(client, {method: 'GET', path: ['sca', 'factors'], query: q(customerId)})
  return client.parse(scaFactorList, res.body, 'SCA factor list')
}

export async function startEnrolment(client: ApiClient, customerId: string, type: 'TOTP' | 'PASSKEY') {
  const res = await send(client, {method: 'POST', path: ['sca', 'factors'], query: q(customerId), body: {type}})
  return client.parse(z.looseObject({type: z.string()}), res.body, 'SCA enrolment')
}

export async function confirmEnrolment(client: ApiClient, customerId: string, body: Record<string, unknown>) {
  const res = await send(client, {method: 'POST', path: ['sca', 'factors', 'confirm'], query: q(customerId), body})
  return client.parse(z.looseObject({type: z.string()}), res.body, 'SCA enrolment confirmation')
}

export async function deleteFactor(client: ApiClient, customerId: string, credentialId: string) {
  await send(client, {method: 'DELETE', path: ['sca', 'factors', credentialId], query: q(customerId)})
}

export async function startLogin(client: ApiClient, customerId: string, factor: string) {
  const res = await send(client, {
    method: 'POST',
    path: ['sca', 'login', 'start'],
    query: q(customerId),
    body: {factor},
  })
  return client.parse(scaLoginStart, res.body, 'SCA login start')
}

export async function completeLogin(client: ApiClient, customerId: string, body: Record<string, unknown>) {
  const res = await send(client, {method: 'POST', path: ['sca', 'login', 'complete'], query: q(customerId), body})
  return client.parse(scaLoginComplete, res.body, 'SCA login')
}

export async function recordEvent(client: ApiClient, customerId: string, eventType: string) {
  const res = await send(client, {
    method: 'POST',
    path: ['sca', 'record-event'],
    query: q(customerId),
    body: {eventType},
  })
  return client.parse(securityState, res.body, 'security state')
}

export async function startReset(client: ApiClient, customerId: string, factor: string) {
  const res = await send(client, {
    method: 'POST',
    path: ['sca', 'factors', 'reset'],
    query: q(customerId),
    body: {factor},
  })
  return client.parse(resetStart, res.body, 'factor reset')
}

export async function getReset(client: ApiClient, customerId: string, resetId: string) {
  const res = await send(client, {method: 'GET', path: ['sca', 'factors', 'reset', resetId], query: q(customerId)})
  return client.parse(resetStatus, res.body, 'factor reset')
}

export async function completeReset(
  client: ApiClient,
  customerId: string,
  resetId: string,
  body: Record<string, unknown>,
) {
  await send(client, {
    method: 'POST',
    path: ['sca', 'factors', 'reset', resetId, 'complete'],
    query: q(customerId),
    body,
  })
}

export async function authorizeQuote(client: ApiClient, quoteId: string, body: Record<string, unknown>) {
  const res = await send(client, {method: 'POST', path: ['quotes', quoteId, 'authorize'], body})
  return client.parse(quoteSchema, res.body, 'quote')
}

export async function resendAuthorization(client: ApiClient, quoteId: string) {
  await send(client, {method: 'POST', path: ['quotes', quoteId, 'authorize', 'resend']})
}
