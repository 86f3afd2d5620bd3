import {quoteSchema, type QuoteCreateRequest} from '../schemas/quotes.js'
import {apiRequest} from './request.js'

/** Read only by `sandbox send`: loaded then, so `quote create` does not build the transaction schemas. */
const transactionSchema = () => import('../schemas/transactions.js').then((m) => m.transactionSchema)

/** `scope` keys a second quote of one command apart from its first (a re-quote after expiry). */
export function createQuote(body: QuoteCreateRequest, scope?: string) {
  return apiRequest({method: 'POST', path: ['quotes'], body, idempotency: scope ? {scope} : {}}, quoteSchema, 'quote')
}

export function getQuote(id: string) {
  return apiRequest({method: 'GET', path: ['quotes', id]}, quoteSchema, 'quote')
}

/**
 * Executes with the command's `execute` key (a CI re-run with the same --idempotency-key pays once).
 * A quote from an embedded wallet is authorised by a stamp of a session of its source wallet.
 */
export function executeQuote(id: string, sourceWallet?: string) {
  return apiRequest(
    {
      method: 'POST',
      path: ['quotes', id, 'execute'],
      idempotency: {scope: 'execute'},
      ...(sourceWallet ? {walletSignature: {accountId: sourceWallet}} : {}),
    },
    quoteSchema,
    'quote',
  )
}

/** Sandbox simulator: the payer's funds arrive for a real-time-funded quote. */
export function sandboxSend(body: {quoteId: string; currencyCode: string; currencyAmount?: number}) {
  return apiRequest({method: 'POST', path: ['sandbox', 'send'], body}, transactionSchema, 'transaction')
}
