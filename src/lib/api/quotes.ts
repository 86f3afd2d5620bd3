import {quoteSchema, type QuoteCreateRequest} from '../schemas/quotes.js'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
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
      readBack: {request: getQuote(id), landed: (q) => quoteExecuted(id, q)},
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

/**
 * Whether a quote read back after a lost execute answer shows the execution: a transaction, or a
 * status past PENDING. EXPIRED settles it the other way: nothing was paid, and nothing can be.
 */
function quoteExecuted(id: string, body: unknown): {done: boolean; said: string} {
  const q = (body ?? {}) as {status?: string; transactionId?: string}
  if (q.status === 'EXPIRED' && !q.transactionId) {
    throw new SvcError({
      code: 'QUOTE_EXPIRED',
      exitCode: ExitCode.CONFLICT,
      message: `The answer to the execution of ${id} was lost, and the quote is EXPIRED: it was not executed, nothing was paid`,
    })
  }
  if (q.transactionId || (q.status && !q.status.startsWith('PENDING')))
    return {done: true, said: `${id} is ${q.status}${q.transactionId ? ` (transaction ${q.transactionId})` : ''}`}
  return {
    done: false,
    said: `${id} still reads ${q.status ?? 'without a status'}, so the execution may yet take effect`,
  }
}
