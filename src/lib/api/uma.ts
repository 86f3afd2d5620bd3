import {transactionSchema} from '../schemas/transactions.js'
import {receiverLookupSchema, type SandboxUmaReceiveRequest} from '../schemas/uma.js'
import type {ApiClient} from './client.js'

/** POST /sandbox/uma/receive: a sandbox sender pays a customer (the payment starts PENDING). */
export async function sandboxUmaReceive(client: ApiClient, body: SandboxUmaReceiveRequest) {
  const res = await client.request({method: 'POST', path: ['sandbox', 'uma', 'receive'], body})
  return client.parse(transactionSchema, res.body, 'transaction')
}

/** GET /receiver/uma/{address} or /receiver/external-account/{id}: what the receiver accepts. */
export async function lookupReceiver(client: ApiClient, receiver: string, sender: {customerId?: string; senderUmaAddress?: string}) {
  const path = receiver.startsWith('ExternalAccount:') ? ['receiver', 'external-account', receiver] : ['receiver', 'uma', receiver]
  const res = await client.request({method: 'GET', path, query: sender})
  return client.parse(receiverLookupSchema, res.body, 'receiver look-up')
}
