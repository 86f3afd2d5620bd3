import type {SandboxContext} from '../../context.js'
import {HttpError} from '../../http-error.js'
import type {EmuRequest} from '../../router.js'
import type {StoredQuote} from '../../store/quotes.js'
import {verifyAccountStamp} from './stamps.js'

/**
 * Quote execution from an EMBEDDED_WALLET source needs the wallet's signature (api-gaps 10 #5,
 * sandbox-behaviour 14): a stamp by an active session of that wallet over the quote's
 * `payloadToSign`. The payload is derived from the quote itself, so it binds what moves and the
 * quote's expiry, and every reader computes the same text.
 */
export function quoteWalletPayload(
  q: Pick<
    StoredQuote,
    'id' | 'expiresAt' | 'totalSendingAmount' | 'sendingCurrency' | 'totalReceivingAmount' | 'receivingCurrency'
  > & {_: {sourceAccountId?: string}},
): string {
  return JSON.stringify({
    operation: 'quote.execute',
    quoteId: q.id,
    sourceAccountId: q._.sourceAccountId,
    sendingAmount: q.totalSendingAmount,
    sendingCurrency: q.sendingCurrency.code,
    receivingAmount: q.totalReceivingAmount,
    receivingCurrency: q.receivingCurrency.code,
    expiresAt: q.expiresAt,
  })
}

/** An execute check (wired in emulator.ts): an embedded-wallet source needs its stamp. */
export function checkWalletQuoteSignature({
  ctx,
  quote,
  req,
}: {
  ctx: SandboxContext
  quote: StoredQuote
  req?: EmuRequest
}): void {
  if (quote._.sourceAccountType !== 'EMBEDDED_WALLET' || !quote._.sourceAccountId) return
  const payloadToSign = quoteWalletPayload(quote)
  const raw = req?.headers['service-wallet-signature']
  const header = Array.isArray(raw) ? raw[0] : raw
  if (!header) {
    // The payload travels in the refusal too, so a client can stamp and retry the same call.
    throw new HttpError(
      401,
      'WALLET_SIGNATURE_MISSING',
      `${quote.id} is funded from embedded wallet ${quote._.sourceAccountId}: stamp its payloadToSign with an active session key of that wallet and send it as Service-Wallet-Signature`,
      {payloadToSign, accountId: quote._.sourceAccountId},
    )
  }
  verifyAccountStamp(ctx, quote._.sourceAccountId, payloadToSign, header)
}
