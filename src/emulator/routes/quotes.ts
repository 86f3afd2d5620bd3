import {quoteCreateRequest, quoteExecuteRequest} from '../../lib/schemas/quotes.js'
import {platformTransferInRequest, platformTransferOutRequest} from '../../lib/schemas/transfers.js'
import {executeQuote} from '../domain/quote-execute.js'
import {createQuote, getQuote, publicQuote} from '../domain/quotes.js'
import {publicTransaction} from '../domain/transactions.js'
import {holdNewQuote} from '../domain/sca-quotes.js'
import {createQuoteChecked, transferIn, transferOut} from '../domain/transfers.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** Quotes (create, get, execute) and the deprecated same-currency transfer endpoints (spec 4.4). */
export function registerQuotes(router: Router): void {
  router.handle('createQuote', (req, ctx) => {
    const input = validate(quoteCreateRequest, req.body ?? {})
    if (!input.immediatelyExecute) {
      // A real-time quote of a customer that needs SCA is held (202) until authorized.
      const q = holdNewQuote(ctx, createQuote(ctx, input))
      return {status: q.status === 'PENDING_AUTHORIZATION' ? 202 : 201, body: publicQuote(q)}
    }
    // Checked before the quote is stored, so a refused request leaves nothing behind.
    const q = createQuoteChecked(ctx, (beforeStore) => createQuote(ctx, input, {beforeStore}))
    return {status: 201, body: publicQuote(executeQuote(ctx, q.id, {req}))}
  })

  router.handle('getQuoteById', (req, ctx) => ({status: 200, body: publicQuote(getQuote(ctx, req.params.quoteId))}))

  router.handle('executeQuote', (req, ctx) => {
    // A bad body is refused before anything moves (the factor itself is chosen by the SCA challenge).
    validate(quoteExecuteRequest, req.body ?? {})
    return {status: 200, body: publicQuote(executeQuote(ctx, req.params.quoteId, {req}))}
  })

  router.handle('createTransferOut', (req, ctx) => ({
    status: 201,
    body: publicTransaction(transferOut(ctx, validate(platformTransferOutRequest, req.body ?? {}), req)),
  }))

  router.handle('createTransferIn', (req, ctx) => ({
    status: 201,
    body: publicTransaction(transferIn(ctx, validate(platformTransferInRequest, req.body ?? {}), req)),
  }))
}
