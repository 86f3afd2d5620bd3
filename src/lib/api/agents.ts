import * as z from 'zod'
import {
  agentActionSchema,
  agentCreateResponse,
  agentSchema,
  deviceCodeSchema,
  deviceCodeStatus,
  redeemResponse,
} from '../schemas/agents.js'
import {apiRequest, type ApiRequest, type Query} from './request.js'
import {listRequest} from './paging.js'

// The other topics' answers (accounts, quotes, transactions) load on use: their modules build every
// request schema of their topic too, which `agents list` and the other platform-side commands never read.
const internalAccountSchema = () => import('../schemas/accounts.js').then((m) => m.internalAccountSchema)
const quoteSchema = () => import('../schemas/quotes.js').then((m) => m.quoteSchema)
const transactionSchema = () => import('../schemas/transactions.js').then((m) => m.transactionSchema)

// --- the platform's side (HTTP Basic) ---

export function createAgent(body: Record<string, unknown>) {
  return apiRequest({method: 'POST', path: ['agents'], body}, agentCreateResponse, 'agent')
}

export const listAgents = (query: Query) => listRequest(['agents'], query, agentSchema, 'agent list')

export function getAgent(id: string) {
  return apiRequest({method: 'GET', path: ['agents', id]}, agentSchema, 'agent')
}

export function updateAgent(id: string, body: Record<string, unknown>) {
  return apiRequest({method: 'PATCH', path: ['agents', id], body}, agentSchema, 'agent')
}

export function deleteAgent(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['agents', id]}
}

export function updatePolicy(id: string, body: Record<string, unknown>) {
  return apiRequest({method: 'PATCH', path: ['agents', id, 'policy'], body}, agentSchema, 'agent')
}

export function issueDeviceCode(id: string) {
  return apiRequest({method: 'POST', path: ['agents', id, 'device-codes']}, deviceCodeSchema, 'device code')
}

export function deviceCodeStatusOf(code: string) {
  return apiRequest(
    {method: 'GET', path: ['agents', 'device-codes', code, 'status']},
    deviceCodeStatus,
    'device code status',
  )
}

/** Needs no credentials: the device code is the credential. */
export function redeemDeviceCode(code: string) {
  return apiRequest(
    {method: 'POST', path: ['agents', 'device-codes', code, 'redeem']},
    redeemResponse,
    'device code redemption',
  )
}

export const listApprovals = (query: Query) =>
  listRequest(['agents', 'approvals'], query, agentActionSchema, 'approval list')

export function decideAction(agentId: string, actionId: string, verb: 'approve' | 'reject', reason?: string) {
  return apiRequest(
    {
      method: 'POST',
      path: ['agents', agentId, 'actions', actionId, verb],
      ...(verb === 'reject' ? {body: reason ? {reason} : {}} : {}),
    },
    agentActionSchema,
    'agent action',
  )
}

// --- the agent's side (HTTP Bearer, /agents/me) ---

export function me() {
  return apiRequest({method: 'GET', path: ['agents', 'me']}, agentSchema, 'agent')
}

export const myInternalAccounts = (query: Query) =>
  listRequest(['agents', 'me', 'internal-accounts'], query, internalAccountSchema, 'account list')
export const myExternalAccounts = (query: Query) =>
  listRequest(['agents', 'me', 'external-accounts'], query, z.looseObject({id: z.string()}), 'external account list')

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

export const myTransactions = (query: Query) =>
  listRequest(['agents', 'me', 'transactions'], query, transactionSchema, 'transaction list')
export const myActions = (query: Query) =>
  listRequest(['agents', 'me', 'actions'], query, agentActionSchema, 'action list')

export function myAction(id: string) {
  return apiRequest({method: 'GET', path: ['agents', 'me', 'actions', id]}, agentActionSchema, 'agent action')
}

export function myExternalAccountAdd(body: Record<string, unknown>) {
  return apiRequest(
    {method: 'POST', path: ['agents', 'me', 'external-accounts'], body},
    z.looseObject({id: z.string(), status: z.string()}),
    'external account',
  )
}

export function myExternalAccountDelete(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['agents', 'me', 'external-accounts', id]}
}

export function myTransaction(id: string) {
  return apiRequest({method: 'GET', path: ['agents', 'me', 'transactions', id]}, transactionSchema, 'transaction')
}
