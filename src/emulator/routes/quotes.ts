import {quoteCreateRequest, transferInRequest, transferOutRequest} from '../../lib/schemas/quotes.js'
import {getExternalAccount} from '../domain/external-accounts.js'
import {getInternalAccount} from '../domain/ledger.js'
import {suffixOf, transferOutcome} from '../domain/payout-patterns.js'
import {executeQuote} from '../domain/quote-execute.js'
import {checkDailyVolume} from '../domain/quote-rules.js'
import {createQuote, getQuote, publicQuote, registerQuoteJobs, type StoredQuote} from '../domain/quotes.js'
import {getTransaction, publicTransaction} from '../domain/transactions.js'
import type {Emulator} from '../emulator.js'
import {HttpError, invalid, validate} from '../http-error.js'
import type {Router} from '../router.js'

/** Quotes (create, get, execute) and the deprecated same-currency transfer endpoints (spec 4.4). */
export function registerQuotes(router: Router, emu: Emulator): void {
  registerQuoteJobs(emu)

  router.post('/quotes', (req) =>
    emu.idempotent(req, 'quotes', () => {
      const input = validate(quoteCreateRequest, req.body ?? {})
      if (!input.immediatelyExecute) return {status: 201, body: publicQuote(createQuote(emu, input))}
      // Checked before the quote is stored, so a refused request leaves nothing behind.
      const q = createQuoteChecked(emu, (beforeStore) => createQuote(emu, input, {beforeStore}))
      return {status: 201, body: publicQuote(executeQuote(emu, q.id, {req}))}
    }),
  )

  router.get('/quotes/:quoteId', (req) => ({status: 200, body: publicQuote(getQuote(emu, req.params.quoteId))}))

  router.post('/quotes/:quoteId/execute', (req) =>
    emu.idempotent(req, `execute|${req.params.quoteId}`, () => ({status: 200, body: publicQuote(executeQuote(emu, req.params.quoteId, {req}))})),
  )

  router.post('/transfer-out', (req) =>
    emu.idempotent(req, 'transfer-out', () => {
      const input = validate(transferOutRequest, req.body ?? {})
      const src = getInternalAccount(emu, input.source.accountId)
      const dest = getExternalAccount(emu, input.destination.accountId)
      if (src.balance.currency.code !== dest.currency) throw invalid([{field: 'destination.accountId', message: `pays out ${dest.currency}; transfers are same-currency (${src.balance.currency.code})`}])
      if (suffixOf(dest.accountInfo) === '002') throw new HttpError(400, 'INSUFFICIENT_FUNDS', 'Insufficient funds (sandbox suffix 002)')
      const q = createQuoteChecked(emu, (beforeStore) =>
        createQuote(emu, {
          source: {sourceType: 'ACCOUNT', accountId: src.id},
          destination: {destinationType: 'ACCOUNT', accountId: dest.id, ...(input.destination.paymentRail ? {paymentRail: input.destination.paymentRail} : {})},
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: input.amount,
          ...(input.remittanceInformation ? {remittanceInformation: input.remittanceInformation} : {}),
          ...(input.purposeOfPayment ? {purposeOfPayment: input.purposeOfPayment} : {}),
        }, {beforeStore}),
      )
      const done = executeQuote(emu, q.id, {req, outcome: transferOutcome(dest.accountInfo)})
      return {status: 201, body: publicTransaction(getTransaction(emu, done.transactionId!))}
    }),
  )

  router.post('/transfer-in', (req) =>
    emu.idempotent(req, 'transfer-in', () => {
      const input = validate(transferInRequest, req.body ?? {})
      const src = getExternalAccount(emu, input.source.accountId)
      const dest = getInternalAccount(emu, input.destination.accountId)
      if (src.currency !== dest.balance.currency.code) throw invalid([{field: 'destination.accountId', message: `holds ${dest.balance.currency.code}; transfers are same-currency (${src.currency})`}])
      if (suffixOf(src.accountInfo) === '002') throw new HttpError(400, 'INSUFFICIENT_FUNDS', 'The source bank account has insufficient funds (sandbox suffix 002)')
      const q = createQuoteChecked(emu, (beforeStore) =>
        createQuote(emu, {source: {sourceType: 'ACCOUNT', accountId: src.id}, destination: {destinationType: 'ACCOUNT', accountId: dest.id}, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: input.amount}, {beforeStore}),
      )
      const done = executeQuote(emu, q.id, {req, outcome: transferOutcome(src.accountInfo)})
      return {status: 201, body: publicTransaction(getTransaction(emu, done.transactionId!))}
    }),
  )
}

/** A quote executed in the same request: the daily volume is checked before the quote is stored. */
function createQuoteChecked(emu: Emulator, create: (beforeStore: (q: StoredQuote) => void) => StoredQuote): StoredQuote {
  return create((q) => void checkDailyVolume(emu, q.sendingCurrency.code, q.totalSendingAmount))
}
