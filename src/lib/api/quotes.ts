import {quoteSchema, type QuoteCreateRequest} from '../schemas/quotes.js'
import {transactionSchema} from '../schemas/transactions.js'
import type {ApiClient} from './client.js'

export async function createQuote(client: ApiClient, body: QuoteCreateRequest, idempotencyKey: string) {
  const res = await client.request({method: 'POST', path: ['quotes'], body, idempotencyKey})
  return client.parse(quoteSchema, res.body, 'quote')
}

export async function getQuote(client: ApiClient, id: string) {
  const res = await client.request({method: 'GET', path: ['quotes', id]})
  return client.parse(quoteSchema, res.body, 'quote')
}

export async function executeQuote(client: ApiClient, id: string, idempotencyKey: string, headers?: Record<string, string>) {
  const res = await client.request({method: 'POST', path: ['quotes', id, 'execute'], idempotencyKey, headers})
  return client.parse(quoteSchema, res.body, 'quote')
}

/** Sandbox simulator: the payer's funds arrive for a real-time-funded quote. */
export async function sandboxSend(client: ApiClient, body: {quoteId: string; currencyCode: string; currencyAmount?: number}) {
  const res = await client.request({method: 'POST', path: ['sandbox', 'send'], body})
  return client.parse(transactionSchema, res.body, 'transaction')
}
