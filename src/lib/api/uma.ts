import {transactionSchema} from '../schemas/transactions.js'
import {receiverLookupSchema, type SandboxUmaReceiveRequest} from '../schemas/uma.js'
import {apiRequest} from './request.js'

/** POST /sandbox/uma/receive: a sandbox sender pays a customer (the payment starts PENDING). */
export function sandboxUmaReceive(body: SandboxUmaReceiveRequest) {
  return apiRequest({method: 'POST', path: ['sandbox', 'uma', 'receive'], body}, transactionSchema, 'transaction')
}

/** GET /receiver/uma/{address} or /receiver/external-account/{id}: what the receiver accepts. */
export function lookupReceiver(receiver: string, sender: {customerId?: string; senderUmaAddress?: string}) {
  const path = receiver.startsWith('ExternalAccount:')
    ? ['receiver', 'external-account', receiver]
    : ['receiver', 'uma', receiver]
  return apiRequest({method: 'GET', path, query: sender}, receiverLookupSchema, 'receiver look-up')
}
