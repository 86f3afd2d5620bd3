import type {PayoutOutcome as Outcome} from '../store/transactions.js'
import {WALLET_KINDS} from '../../lib/account-checks.js'
import {primaryIdentifier} from '../../lib/schemas/accounts.js'

export type {Outcome}

export function suffixOf(info: Record<string, unknown>): string {
  const id = primaryIdentifier(info)
  const local = id.includes('@') ? id.slice(0, id.indexOf('@')) : id
  return local.slice(-3)
}

/** Quote destinations (section 9; wallets use section 10, where 003 means unavailable). */
export function quoteOutcome(info: Record<string, unknown> | undefined): Outcome {
  if (!info) return {kind: 'complete', delay: 'normal'}
  const wallet = Boolean(WALLET_KINDS[String(info.accountType)])
  switch (suffixOf(info)) {
    case '002':
      return {kind: 'fail', reason: 'QUOTE_EXECUTION_FAILED', delay: 'normal'}
    case '003':
      return wallet
        ? {kind: 'fail', reason: 'ACCOUNT_CANNOT_RECEIVE', delay: 'normal'}
        : {kind: 'complete', delay: 'slow'}
    case '004':
      return {kind: 'fail', reason: 'ACCOUNT_CANNOT_RECEIVE', delay: 'normal'}
    case '005':
      return wallet ? {kind: 'fail', reason: 'ACCOUNT_CANNOT_RECEIVE', delay: 'timeout'} : {kind: 'return'}
    case '006':
      return {
        kind: 'fail',
        reason: 'QUOTE_EXECUTION_FAILED',
        delay: 'normal',
        refund: 'COMPLETED',
        refundReason: 'USER_CANCELLATION',
      }
    case '007':
      return {
        kind: 'fail',
        reason: 'ACCOUNT_CANNOT_RECEIVE',
        delay: 'normal',
        refund: 'FAILED',
        refundReason: 'TRANSACTION_FAILED',
      }
    default:
      return {kind: 'complete', delay: 'normal'}
  }
}

/** Deprecated /transfer-out destinations (section 8). 002 is refused synchronously by the caller. */
export function transferOutcome(info: Record<string, unknown>): Outcome {
  switch (suffixOf(info)) {
    case '003':
      return {kind: 'fail', reason: 'ACCOUNT_INVALID', delay: 'normal'}
    case '004':
      return {kind: 'fail', reason: 'ACCOUNT_CANNOT_RECEIVE', delay: 'normal'}
    case '005':
      return {kind: 'fail', reason: 'ACCOUNT_CANNOT_RECEIVE', delay: 'timeout'}
    default:
      return {kind: 'complete', delay: 'normal'}
  }
}

/** Beneficiary name check from the 1xx suffixes (section 7); 105 is refused at creation. */
export function beneficiaryStatus(info: Record<string, unknown>): string {
  return (
    {
      '102': 'NOT_MATCHED',
      '103': 'PARTIAL_MATCH',
      '104': 'PENDING',
      '106': 'UNSUPPORTED',
      '107': 'CHECKED_BY_RECEIVING_FI',
    }[suffixOf(info)] ?? 'MATCHED'
  )
}
