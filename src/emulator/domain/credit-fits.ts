import type {SandboxContext} from '../context.js'
import {invalid} from '../http-error.js'
import type {StoredCardTransaction} from '../store/cards.js'
import type {StoredTransaction} from '../store/transactions.js'
import type {InternalAccount} from './internal-accounts.js'

/** Transaction states whose credit is still to come. */
const IN_FLIGHT = ['PENDING', 'PROCESSING', 'PENDING_AUTHORIZATION']

/**
 * What is already promised to an account and not yet credited: conversions into it and incoming
 * (UMA) payments to it on their way, UMA payments of local payers to it, mints into it not settled,
 * and the open part of card credit authorizations on it. Each of these credits it later, in a job.
 */
function creditsOnTheirWay(ctx: SandboxContext, accountId: string): number {
  let pending = 0
  const marks = IN_FLIGHT.map(() => '?').join(', ')
  const inbound = ctx.db.docs<StoredTransaction>(
    ctx.db.sql.rows(
      `SELECT doc FROM transactions WHERE destination_account_id = ? AND status IN (${marks})`,
      accountId,
      ...IN_FLIGHT,
    ),
  )
  for (const t of inbound)
    if (t._?.destinationInternal === accountId || t.type === 'INCOMING') pending += t.receivedAmount?.amount ?? 0
  const uma = ctx.db.docs<StoredTransaction>(
    ctx.db.sql.rows(
      `SELECT doc FROM transactions WHERE status IN (${marks}) AND json_extract(doc, '$._.umaReceiver.accountId') = ?`,
      ...IN_FLIGHT,
      accountId,
    ),
  )
  for (const t of uma) pending += t.receivedAmount?.amount ?? 0
  for (const row of ctx.db.sql.rows(
    `SELECT json_extract(doc, '$._ledger.creditOnSettle.amount') FROM stablecoinOperations
      WHERE json_extract(doc, '$._ledger.creditOnSettle.accountId') = ?`,
    accountId,
  ))
    pending += Number(row[0] ?? 0)
  const cards = ctx.db.docs<StoredCardTransaction>(
    ctx.db.sql.rows(
      "SELECT doc FROM cardTransactions WHERE account_id = ? AND json_extract(doc, '$.status') IN ('AUTHORIZED', 'PARTIALLY_SETTLED')",
      accountId,
    ),
  )
  for (const t of cards)
    if (t.direction === 'CREDIT') pending += Math.max(0, t.authorizedAmount.amount - t.settledAmount.amount)
  return pending
}

/**
 * Every credit site's check (issue 29 F18): a credit of `amount` to an internal account, counted with
 * the credits already promised to it, must keep its balance an exact integer (at most 2^53 - 1 smallest
 * units). Refused up front, 400 naming `field`, never a movement accepted now that fails in its job:
 * quotes and executes into internal accounts, incoming UMA payments, stablecoin mints, card credits and returns.
 */
export function checkCreditFits(ctx: SandboxContext, account: InternalAccount, amount: number, field: string): void {
  const pending = creditsOnTheirWay(ctx, account.id)
  if (!Number.isSafeInteger(account.totalBalance.amount + pending + amount))
    throw invalid([
      {
        field,
        message: `would take ${account.id} (${account.totalBalance.amount} held, ${pending} on its way) past the largest balance held exactly (${Number.MAX_SAFE_INTEGER} smallest units)`,
      },
    ])
}
