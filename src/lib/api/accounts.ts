import {z} from 'zod'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {externalAccountSchema, internalAccountSchema, ownershipChallengeSchema, type ExternalAccountCreateRequest} from '../schemas/accounts.js'
import type {ApiClient} from './client.js'
import {listPaged, type PageOptions} from './list.js'

export async function listInternalAccounts(client: ApiClient, query: {customerId?: string; currency?: string}, page: PageOptions) {
  return listPaged(client, ['internal-account'], query, internalAccountSchema, page, 'internal account list')
}

/** There is no GET by id (api-gaps 3.1): list (narrowed by customer when known) and pick the account. */
export async function getInternalAccount(client: ApiClient, id: string, customerId?: string) {
  const list = await listInternalAccounts(client, {customerId}, {all: true})
  const found = list.data.find((a) => a.id === id)
  if (!found) throw new SvcError({code: 'ACCOUNT_NOT_FOUND', status: 404, exitCode: ExitCode.NOT_FOUND, message: `Internal account ${id} not found`})
  return found
}

export async function fundInternalAccount(client: ApiClient, id: string, amount: number) {
  const res = await client.request({method: 'POST', path: ['sandbox', 'internal-accounts', id, 'fund'], body: {amount}})
  return client.parse(internalAccountSchema, res.body, 'internal account')
}

export async function createExternalAccount(client: ApiClient, body: ExternalAccountCreateRequest) {
  const res = await client.request({method: 'POST', path: ['customers', 'external-accounts'], body})
  return client.parse(externalAccountSchema, res.body, 'external account')
}

export async function listExternalAccounts(client: ApiClient, query: {customerId?: string; currency?: string}, page: PageOptions) {
  return listPaged(client, ['customers', 'external-accounts'], query, externalAccountSchema, page, 'external account list')
}

export async function getExternalAccount(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['customers', 'external-accounts', id]})
  return client.parse(externalAccountSchema, res.body, 'external account')
}

export async function deleteExternalAccount(client: ApiClient, id: string): Promise<void> {
  await client.request({method: 'DELETE', path: ['customers', 'external-accounts', id]})
}

const scaAnswer = z.looseObject({scaChallenge: z.looseObject({id: z.string()}).optional()})

/** Untrust, then confirm (with the SCA code when the provider asked for one). */
export async function untrustExternalAccount(client: ApiClient, id: string, code?: string) {
  const res = await client.request({method: 'POST', path: ['customers', 'external-accounts', id, 'untrust']})
  const sca = client.parse(scaAnswer, res.body ?? {}, 'untrust answer').scaChallenge
  if (sca && !code) {
    throw new SvcError({code: 'SCA_CODE_REQUIRED', exitCode: ExitCode.USAGE, message: `Untrusting ${id} needs the customer's SCA code (challenge ${sca.id})`, hint: 'Re-run with --code <code from the customer>.'})
  }
  // No challenge: the untrust applied at once (a confirm needs the customer's code or passkey).
  if (!sca) return {trusted: false}
  const confirm = await client.request({method: 'POST', path: ['customers', 'external-accounts', id, 'untrust', 'confirm'], body: {challengeId: sca.id, code}})
  return client.parse(z.looseObject({trusted: z.boolean()}), confirm.body, 'untrust confirmation')
}

export async function createOwnershipChallenge(client: ApiClient, id: string, method: 'WALLET_SIGNATURE' | 'LIVENESS') {
  const res = await client.request({method: 'POST', path: ['customers', 'external-accounts', id, 'challenge'], body: {method}})
  return client.parse(ownershipChallengeSchema, res.body, 'ownership challenge')
}

export async function submitOwnershipSignature(client: ApiClient, id: string, signature: string, signatureScheme?: 'bip137' | 'electrum') {
  const res = await client.request({method: 'POST', path: ['customers', 'external-accounts', id, 'verify'], body: {signature, ...(signatureScheme ? {signatureScheme} : {})}})
  return client.parse(externalAccountSchema, res.body, 'external account')
}
