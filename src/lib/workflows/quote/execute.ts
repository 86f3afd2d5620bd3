import {createQuote, executeQuote} from '../../api/quotes.js'
import type {Context} from '../../context.js'
import {ApiError, usageError} from '../../errors.js'
import {interrupts} from '../../interrupt.js'
import {renderQuote, quoteQuestion} from '../../output/quote.js'
import {renderTransaction} from '../../output/transaction.js'
import {canPrompt, promptConfirm} from '../../prompts.js'
import type {Quote, QuoteCreateRequest} from '../../schemas/quotes.js'
import {waitForQuote, type Settled} from './wait.js'

export interface ExecuteOptions {
  yes?: boolean
  wait?: boolean
  /** The request that made the quote, to re-quote with the same terms when it expired. */
  request?: QuoteCreateRequest
}

/** Real-time-funded quotes are executed by the arrival of funds, never by execute (spec 4.4). */
export function refuseRealtime(q: Quote): void {
  if (q.source.sourceType === 'REALTIME_FUNDING') {
    throw usageError(
      `${q.id} is funded in real time: it executes by itself when the funds arrive`,
      `Pay the instructions shown by \`svc quote get ${q.id}\` (sandbox: \`svc sandbox send ${q.id}\`), then \`svc quote wait ${q.id}\`.`,
    )
  }
}

/** The same terms as an expired quote: source, destination, and the amount sent. */
function sameTerms(q: Quote, request?: QuoteCreateRequest): QuoteCreateRequest {
  if (request) return request
  return {
    source: q.source,
    destination: q.destination,
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: q.totalSendingAmount,
    ...(q.description ? {description: q.description} : {}),
  } as QuoteCreateRequest
}

/**
 * Shows the summary, confirms (production: TTY prompt or --yes), executes with the command's
 * `execute` idempotency key (a CI re-run with the same --idempotency-key pays once), and optionally
 * follows the payment to a terminal state. An expired quote can be re-quoted on a TTY.
 */
export async function confirmAndExecute(ctx: Context, quote: Quote, opts: ExecuteOptions): Promise<Settled> {
  refuseRealtime(quote)
  const out = ctx.out
  if (!out.json) renderQuote(out, quote, ctx.now())
  ctx.banner(`execute ${quote.id}`)
  // Already executed: the Service replays the answer for the same Idempotency-Key or refuses; nothing new can be paid.
  if (quote.status === 'PENDING') await ctx.confirm(quoteQuestion(quote), {yes: opts.yes, always: true})
  let executed: Quote
  try {
    // Embedded-wallet sources are authorised by a stamp over the quote's payloadToSign (no-op otherwise);
    // the request and its `execute` key are executeQuote's, the signature header is added to it.
    const sending = {
      doing: `The execution of ${quote.id} was sent and may have reached the Service`,
      resume: `svc quote get ${quote.id}`,
    }
    // Loaded here, not with the module: it brings the wallet crypto, which `quote create` alone never needs.
    const {executeWithWalletSignature} = await import('../wallet/ops.js')
    executed = await interrupts.during(sending, () => executeWithWalletSignature(ctx, quote, executeQuote(quote.id)))
  } catch (e) {
    if (e instanceof ApiError && e.code === 'SCA_SESSION_REQUIRED') {
      const {explainSessionRequired, offerScaLogin} = await import('../sca/execute.js')
      if (opts.yes || !(await offerScaLogin(ctx, e))) throw explainSessionRequired(e)
      return confirmAndExecute(ctx, quote, {...opts, yes: true})
    }
    if (!(e instanceof ApiError) || e.code !== 'QUOTE_EXPIRED') throw e
    if (!canPrompt(ctx.env) || opts.yes) throw e
    out.warn(`${quote.id} expired at ${quote.expiresAt}.`)
    if (!(await promptConfirm('Create a new quote with the same terms?', true))) throw e
    const fresh = await ctx.client.call(createQuote(sameTerms(quote, opts.request), 'requote'))
    return confirmAndExecute(ctx, fresh, {...opts, request: sameTerms(quote, opts.request)})
  }
  if (executed.status === 'PENDING_AUTHORIZATION') {
    const {handleHeldQuote} = await import('../sca/execute.js')
    executed = await handleHeldQuote(ctx, executed)
    if (executed.status === 'PENDING_AUTHORIZATION') return executed
  }
  out.success(
    `Executed ${executed.id}: ${executed.status}${executed.transactionId ? ` (transaction ${executed.transactionId})` : ''}`,
  )
  if (!opts.wait) return executed
  return follow(ctx, executed.id)
}

export async function follow(ctx: Context, quoteId: string): Promise<Settled> {
  const settled = await waitForQuote(ctx, quoteId, (s) => ctx.out.info(ctx.out.dim(`… ${s}`)))
  ctx.out.success(`${settled.transaction?.id ?? quoteId} ${settled.transaction?.status ?? settled.status}`)
  if (settled.transaction && !ctx.out.json) renderTransaction(ctx.out, settled.transaction)
  return settled
}
