import {z} from 'zod'
import {
  agentActionSchema,
  agentCreateResponse,
  agentSchema,
  deviceCodeSchema,
  deviceCodeStatus,
  redeemResponse,
} from '../schemas/agents.js'
import {internalAccountSchema} from '../schemas/accounts.js'
import {quoteSchema} from '../schemas/quotes.js'
import {transactionSchema} from '../schemas/transactions.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, type PageOptions} from './list.js'

type Query = Record<string, string | number | boolean | undefined>

// --- the platform's side (HTTP Basic) ---

export async function createAgent(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.request({method: 'POST', path: ['agents'], body})
  return client.parse(agentCreateResponse, res.body, 'agent')
}

export const listAgents = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(client, ['agents'], query, agentSchema, page, 'agent list')

export async function getAgent(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['agents', id]})
  return client.parse(agentSchema, res.body, 'agent')
}

export async function updateAgent(client: ApiClient, id: string, body: Record<string, unknown>) {
  const res = await client.request({method: 'PATCH', path: ['agents', id], body})
  return client.parse(agentSchema, res.body, 'agent')
}

export async function deleteAgent(client: ApiClient, id: string) {
  await client.request({method: 'DELETE', path: ['agents', id]})
}

export async function updatePolicy(client: ApiClient, id: string, body: Record<string, unknown>) {
  const res = await client.request({method: 'PATCH', path: ['agents', id, 'policy'], body})
  return client.parse(agentSchema, res.body, 'agent')
}

export async function issueDeviceCode(client: ApiClient, id: string) {
  const res = await client.request({method: 'POST', path: ['agents', id, 'device-codes']})
  return client.parse(deviceCodeSchema, res.body, 'device code')
}

export async function deviceCodeStatusOf(client: ApiClient, code: string) {
  const res = await client.request({method: 'GET', path: ['agents', 'device-codes', code, 'status']})
  return client.parse(deviceCodeStatus, res.body, 'device code status')
}

/** Needs no credentials: the device code is the credential. */
export async function redeemDeviceCode(client: ApiClient, code: string) {
  const res = await client.request({method: 'POST', path: ['agents', 'device-codes', code, 'redeem']})
  return client.parse(redeemResponse, res.body, 'device code redemption')
}

export const listApprovals = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(client, ['agents', 'approvals'], query, agentActionSchema, page, 'approval list')

export async function decideAction(
  client: ApiClient,
  agentId: string,
  actionId: string,
  verb: 'approve' | 'reject',
  reason?: string,
) {
  const res = await client.request({
    method: 'POST',
    path: ['agents', agentId, 'actions', actionId, verb],
    ...(verb === 'reject' ? {body: reason ? {reason} : {}} : {}),
  })
  return client.parse(agentActionSchema, res.body, 'agent action')
}

// --- the agent's side (HTTP Bearer, /agents/me) ---

export async function me(client: ApiClient) {
  const res = await client.request({method: 'GET', path: ['agents', 'me']})
  return client.parse(agentSchema, res.body, 'agent')
}

export const myInternalAccounts = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(client, ['agents', 'me', 'internal-accounts'], query, internalAccountSchema, page, 'account list')
export const myExternalAccounts = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(
    client,
    ['agents', 'me', 'external-accounts'],
    query,
    z.looseObject({id: z.string()}),
    page,
    'external account list',
  )

export function myQuote(body: Record<string, unknown>) {
  return apiRequest({method: 'POST', path: ['agents', 'me', 'quotes'], body, idempotency: {}}, quoteSchema, 'quote')
}

export function myExecute(quoteId: string) {
  return apiRequest(
    {method: 'POST', path: ['agents', 'me', 'quotes', quoteId, 'execute'], idempotency: {scope: 'execute'}},
    agentActionSchema,
    'agent action',
  )
}

export function myTransfer(direction: 'transfer-in' | 'transfer-out', body: Record<string, unknown>) {
  return apiRequest(
    {method: 'POST', path: ['agents', 'me', direction], body, idempotency: {}},
    agentActionSchema,
    'agent action',
  )
}

export const myTransactions = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(client, ['agents', 'me', 'transactions'], query, transactionSchema, page, 'transaction list')
export const myActions = (client: ApiClient, query: Query, page: PageOptions) =>
  listPaged(client, ['agents', 'me', 'actions'], query, agentActionSchema, page, 'action list')

export async function myAction(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['agents', 'me', 'actions', id]})
  return client.parse(agentActionSchema, res.body, 'agent action')
}

export async function myExternalAccountAdd(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.request({method: 'POST', path: ['agents', 'me', 'external-accounts'], body})
  return client.parse(z.looseObject({id: z.string(), status: z.string()}), res.body, 'external account')
}

export async function myExternalAccountDelete(client: ApiClient, id: string) {
  await client.request({method: 'DELETE', path: ['agents', 'me', 'external-accounts', id]})
}

export async function myTransaction(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['agents', 'me', 'transactions', id]})
  return client.parse(transactionSchema, res.body, 'transaction')
}
