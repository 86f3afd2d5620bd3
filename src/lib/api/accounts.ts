import * as z from 'zod'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {externalAccountSchema, internalAccountSchema, ownershipChallengeSchema} from '../schemas/account-response.js'
import type {ExternalAccountCreateRequest} from '../schemas/accounts.js'
import type {ApiClient} from './client.js'
import {apiRequest, type ApiRequest} from './request.js'
import {listPaged, listRequest} from './paging.js'

export function listInternalAccounts(query: {customerId?: string; currency?: string}) {
  return listRequest(['internal-account'], query, internalAccountSchema, 'internal account list')
}

/** There is no GET by id (api-gaps 3.1): list (narrowed by customer when known) and pick the account. */
export async function getInternalAccount(client: ApiClient, id: string, customerId?: string) {
  const list = await listPaged(client, listInternalAccounts({customerId}), {all: true})
  const found = list.data.find((a) => a.id === id)
  if (!found)
    throw new SvcError({
      code: 'ACCOUNT_NOT_FOUND',
      status: 404,
      exitCode: ExitCode.NOT_FOUND,
      message: `Internal account ${id} not found`,
    })
  return found
}

export function fundInternalAccount(id: string, amount: number) {
  return apiRequest(
    {method: 'POST', path: ['sandbox', 'internal-accounts', id, 'fund'], body: {amount}},
    internalAccountSchema,
    'internal account',
  )
}

export function createExternalAccount(body: ExternalAccountCreateRequest) {
  return apiRequest(
    {method: 'POST', path: ['customers', 'external-accounts'], body},
    externalAccountSchema,
    'external account',
  )
}

export function listExternalAccounts(query: {customerId?: string; currency?: string}) {
  return listRequest(['customers', 'external-accounts'], query, externalAccountSchema, 'external account list')
}

export function getExternalAccount(id: string) {
  return apiRequest(
    {method: 'GET', path: ['customers', 'external-accounts', id]},
    externalAccountSchema,
    'external account',
  )
}

export function deleteExternalAccount(id: string): ApiRequest<void> {
  return {method: 'DELETE', path: ['customers', 'external-accounts', id]}
}

const scaAnswer = z.looseObject({scaChallenge: z.looseObject({id: z.string()}).optional()})

export function untrustRequest(id: string) {
  return apiRequest(
    {method: 'POST', path: ['customers', 'external-accounts', id, 'untrust']},
    scaAnswer,
    'untrust answer',
  )
}

export function confirmUntrust(id: string, challengeId: string, code: string | undefined) {
  return apiRequest(
    {method: 'POST', path: ['customers', 'external-accounts', id, 'untrust', 'confirm'], body: {challengeId, code}},
    z.looseObject({trusted: z.boolean()}),
    'untrust confirmation',
  )
}

/** Untrust, then confirm (with the SCA code when the provider asked for one). */
export async function untrustExternalAccount(
  client: ApiClient,
  untrust: ReturnType<typeof untrustRequest>,
  code?: string,
) {
  const id = untrust.path[2]
  // An empty answer (204) is an untrust without a challenge.
  const res = await client.request(untrust)
  const sca = client.parse(scaAnswer, res.body ?? {}, 'untrust answer').scaChallenge
  if (sca && !code) {
    throw new SvcError({
      code: 'SCA_CODE_REQUIRED',
      exitCode: ExitCode.USAGE,
      message: `Untrusting ${id} needs the customer's SCA code (challenge ${sca.id})`,
      hint: 'Re-run with --code <code from the customer>.',
    })
  }
  // No challenge: the untrust applied at once (a confirm needs the customer's code or passkey).
  if (!sca) return {trusted: false}
  return client.call(confirmUntrust(id, sca.id, code))
}

export function createOwnershipChallenge(id: string, method: 'WALLET_SIGNATURE' | 'LIVENESS') {
  return apiRequest(
    {method: 'POST', path: ['customers', 'external-accounts', id, 'challenge'], body: {method}},
    ownershipChallengeSchema,
    'ownership challenge',
  )
}

export function submitOwnershipSignature(id: string, signature: string, signatureScheme?: 'bip137' | 'electrum') {
  return apiRequest(
    {
      method: 'POST',
      path: ['customers', 'external-accounts', id, 'verify'],
      body: {signature, ...(signatureScheme ? {signatureScheme} : {})},
    },
    externalAccountSchema,
    'external account',
  )
}
