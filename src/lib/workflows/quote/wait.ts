import {getQuote} from '../../api/quotes.js'
import {getTransaction} from '../../api/transactions.js'
import type {Context} from '../../context.js'
import {SvcError, stillPending} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {interrupts} from '../../interrupt.js'
import type {Quote} from '../../schemas/quotes.js'
import {TERMINAL_TRANSACTION_STATUSES, type Transaction} from '../../schemas/transactions.js'
import {explainFrozenClock} from '../../frozen-clock.js'

export type Settled = Quote & {transaction?: Transaction}

/**
 * Follows a quote to a terminal state: its transaction COMPLETED or FAILED, or the quote EXPIRED.
 * Polls with a gentle backoff until --timeout (exit 8, safe to re-run).
 */
export async function waitForQuote(
  ctx: Context,
  quoteId: string,
  onProgress?: (status: string) => void,
): Promise<Settled> {
  const doing = (status: string) => `The payment of ${quoteId} goes on at the Service (last seen: ${status})`
  return interrupts.during({doing: doing('not yet polled'), resume: `svc quote wait ${quoteId}`}, (update) =>
    poll(ctx, quoteId, (status) => {
      update(doing(status))
      onProgress?.(status)
    }),
  )
}

async function poll(ctx: Context, quoteId: string, onProgress: (status: string) => void): Promise<Settled> {
  let delay = 250
  let last = ''
  for (;;) {
    const quote = await ctx.client.call(getQuote(quoteId))
    let tx: Transaction | undefined
    if (quote.transactionId && quote.status !== 'PENDING')
      tx = await ctx.client
        .call(getTransaction(quote.transactionId))
        .catch((e: SvcError) => (e.exitCode === ExitCode.NOT_FOUND ? undefined : Promise.reject(e)))
    const status = tx ? `transaction ${tx.status}` : `quote ${quote.status}`
    if (status !== last) onProgress(status)
    last = status
    if (tx && TERMINAL_TRANSACTION_STATUSES.has(tx.status)) {
      // The transaction was read after the quote: when it ended in between, the quote read is older
      // than it, so read the quote again for one picture of the end (not PROCESSING beside COMPLETED).
      const ended = quote.status === 'PROCESSING' ? await ctx.client.call(getQuote(quoteId)) : quote
      return finish({...ended, transaction: tx})
    }
    if (quote.status === 'EXPIRED' || quote.status === 'FAILED')
      return finish({...quote, ...(tx ? {transaction: tx} : {})})
    if (ctx.remainingMs() <= 0) {
      throw await explainFrozenClock(
        ctx,
        stillPending(
          `${quoteId} is still ${status} at --timeout`,
          `Run \`svc quote wait ${quoteId}\` to keep waiting; nothing will be paid twice.`,
        ),
      )
    }
    await ctx.sleep(Math.min(delay, ctx.remainingMs()))
    delay = Math.min(delay * 2, 2000)
  }
}

/** A payment that ends FAILED or EXPIRED is a failed command (exit 1 / 6), with the transaction in details. */
function finish(s: Settled): Settled {
  const tx = s.transaction
  if (tx?.status === 'COMPLETED') return s
  if (s.status === 'EXPIRED' && !tx) {
    throw new SvcError({
      code: 'QUOTE_EXPIRED',
      exitCode: ExitCode.CONFLICT,
      message: `${s.id} expired before it was funded`,
      details: {quote: s},
    })
  }
  throw new SvcError({
    code: 'PAYMENT_FAILED',
    exitCode: ExitCode.FAILED,
    message: `${tx?.id ?? s.id} ${tx?.status ?? s.status}${tx?.failureReason ? `: ${tx.failureReason}` : ''}`,
    details: {transaction: tx, quote: s},
  })
}
