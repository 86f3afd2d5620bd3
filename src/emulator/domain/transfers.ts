import type {z} from 'zod'
import type {platformTransferInRequest, platformTransferOutRequest} from '../../lib/schemas/transfers.js'
import type {SandboxContext} from '../context.js'
import {HttpError, invalid} from '../http-error.js'
import type {EmuRequest} from '../router.js'
import {getExternalAccount} from './external-accounts.js'
import {getInternalAccount} from './ledger.js'
import {suffixOf, transferOutcome} from './payout-patterns.js'
import {executeQuote} from './quote-execute.js'
import {checkDailyVolume} from './quote-rules.js'
import {createQuote, type StoredQuote} from './quotes.js'
import {getTransaction, type StoredTransaction} from './transactions.js'

/**
 * The balance of the simulated bank behind a pull-capable external account, in smallest units: what
 * /transfer-in pulls when no amount is named. The sandbox models no external balances (every such
 * bank pays, except suffix 002), so "the full balance" is this fixed, documented sum (docs/sandbox.md).
 */
export const SIMULATED_BANK_BALANCE = 1_000_000

/** Who started a transfer: an agent's transfers carry its id and may wait for platform approval. */
export interface Initiator {
  agentId?: string
  agentAuto?: boolean
}

/** A quote executed in the same request: the daily volume is checked before the quote is stored. */
export function createQuoteChecked(
  ctx: SandboxContext,
  create: (beforeStore: (q: StoredQuote) => void) => StoredQuote,
): StoredQuote {
  return create((q) => void checkDailyVolume(ctx, q.sendingCurrency.code, q.totalSendingAmount))
}

/** Same-currency payout from an internal account to an external one (the deprecated /transfer-out). */
export function transferOut(
  ctx: SandboxContext,
  input: z.infer<typeof platformTransferOutRequest>,
  req?: EmuRequest,
  by: Initiator = {},
): StoredTransaction {
  const src = getInternalAccount(ctx, input.source.accountId)
  const dest = getExternalAccount(ctx, input.destination.accountId)
  if (src.balance.currency.code !== dest.currency)
    throw invalid([
      {
        field: 'destination.accountId',
        message: `pays out ${dest.currency}; transfers are same-currency (${src.balance.currency.code})`,
      },
    ])
  if (suffixOf(dest.accountInfo) === '002')
    throw new HttpError(400, 'INSUFFICIENT_FUNDS', 'Insufficient funds (sandbox suffix 002)')
  // No amount: the whole available balance goes out (the contract's "optional for full balance").
  const amount = input.amount ?? src.balance.amount
  if (amount < 1)
    throw invalid([{field: 'amount', message: `is needed: ${src.id} has no available balance to transfer`}])
  const q = createQuoteChecked(ctx, (beforeStore) =>
    createQuote(
      ctx,
      {
        source: {sourceType: 'ACCOUNT', accountId: src.id},
        destination: {
          destinationType: 'ACCOUNT',
          accountId: dest.id,
          ...(input.destination.paymentRail ? {paymentRail: input.destination.paymentRail} : {}),
        },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
        ...(input.remittanceInformation ? {remittanceInformation: input.remittanceInformation} : {}),
        ...(input.purposeOfPayment ? {purposeOfPayment: input.purposeOfPayment} : {}),
      },
      {beforeStore, site: 'transfer.out'},
    ),
  )
  const done = executeQuote(ctx, q.id, {req, outcome: transferOutcome(dest.accountInfo), ...by})
  return getTransaction(ctx, done.transactionId!)
}

/** Same-currency pull from a customer's bank account into an internal account (the deprecated /transfer-in). */
export function transferIn(
  ctx: SandboxContext,
  input: z.infer<typeof platformTransferInRequest>,
  req?: EmuRequest,
  by: Initiator = {},
): StoredTransaction {
  const src = getExternalAccount(ctx, input.source.accountId)
  const dest = getInternalAccount(ctx, input.destination.accountId)
  if (src.currency !== dest.balance.currency.code)
    throw invalid([
      {
        field: 'destination.accountId',
        message: `holds ${dest.balance.currency.code}; transfers are same-currency (${src.currency})`,
      },
    ])
  if (suffixOf(src.accountInfo) === '002')
    throw new HttpError(
      400,
      'INSUFFICIENT_FUNDS',
      'The source bank account has insufficient funds (sandbox suffix 002)',
    )
  const q = createQuoteChecked(ctx, (beforeStore) =>
    createQuote(
      ctx,
      {
        source: {sourceType: 'ACCOUNT', accountId: src.id},
        destination: {destinationType: 'ACCOUNT', accountId: dest.id},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: input.amount ?? SIMULATED_BANK_BALANCE,
      },
      {beforeStore, site: 'transfer.in'},
    ),
  )
  const done = executeQuote(ctx, q.id, {req, outcome: transferOutcome(src.accountInfo), ...by})
  return getTransaction(ctx, done.transactionId!)
}
