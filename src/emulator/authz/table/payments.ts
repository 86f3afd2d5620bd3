import {type AuthzEntry, READ, TRANSACT, op} from './build.js'

/** Payments */
export const PAYMENTS: readonly AuthzEntry[] = [
  op('POST', '/transfer-in', 'createTransferIn', TRANSACT, {idempotency: {scope: 'transfer-in'}}),
  op('POST', '/transfer-out', 'createTransferOut', TRANSACT, {idempotency: {scope: 'transfer-out'}}),
  op('GET', '/receiver/uma/{receiverUmaAddress}', 'lookupUma', READ),
  op('GET', '/receiver/external-account/{accountId}', 'lookupExternalAccount', READ),
  op('GET', '/quotes/{quoteId}', 'getQuoteById', READ),
  op('POST', '/quotes', 'createQuote', TRANSACT, {walletSignature: 'wallet-source', idempotency: {scope: 'quotes'}}),
  op('POST', '/quotes/{quoteId}/execute', 'executeQuote', TRANSACT, {
    walletSignature: 'wallet-source',
    idempotency: {scope: 'execute|{quoteId}'},
  }),
  op('POST', '/quotes/{quoteId}/authorize', 'authorizeQuote', TRANSACT),
  op('POST', '/quotes/{quoteId}/authorize/resend', 'resendQuoteScaCode', TRANSACT),
  op('GET', '/transactions', 'listTransactions', READ),
  op('GET', '/transactions/{transactionId}', 'getTransactionById', READ),
  op('POST', '/transactions/{transactionId}/confirm', 'confirmReceiptDelivery', TRANSACT),
  op('POST', '/transactions/{transactionId}/approve', 'approvePendingPayment', TRANSACT, {
    note: 'Deciding a payment is sending (or refusing) it.',
  }),
  op('POST', '/transactions/{transactionId}/reject', 'rejectPendingPayment', TRANSACT),
  op('POST', '/transactions/{transactionId}/cancel', 'cancelTransaction', TRANSACT),
  op('POST', '/crypto/estimate-withdrawal-fee', 'estimateCryptoWithdrawalFee', READ, {
    note: 'A POST that changes nothing: an estimate is a read.',
  }),
]
