import type {SandboxContext} from '../context.js'
import {HttpError, invalid, notFound} from '../http-error.js'
import type {InternalAccount} from './internal-accounts.js'

/**
 * The ledger: balances live on the internal accounts (minor units); per-currency totals record what
 * came in (funding, credits) and what left (payouts, fees), plus real-time funds in flight. The
 * invariant, per currency:  Σ totalBalance + inTransit + paidOut == fundedIn.
 * `balance` is spendable; `totalBalance` also holds funds debited by an executed payment that has not
 * settled yet. Every operation here is synchronous, so a check and its debit cannot interleave.
 */
export interface LedgerTotals {
  currency: string
  fundedIn: number
  paidOut: number
  inTransit: number
}

export function totals(ctx: SandboxContext, currency: string): LedgerTotals {
  return ctx.db.get<LedgerTotals>('ledger', currency) ?? {currency, fundedIn: 0, paidOut: 0, inTransit: 0}
}

function bump(ctx: SandboxContext, currency: string, d: Partial<Omit<LedgerTotals, 'currency'>>): void {
  const t = totals(ctx, currency)
  ctx.db.put('ledger', currency, {
    currency,
    fundedIn: t.fundedIn + (d.fundedIn ?? 0),
    paidOut: t.paidOut + (d.paidOut ?? 0),
    inTransit: t.inTransit + (d.inTransit ?? 0),
  })
}

export function getInternalAccount(ctx: SandboxContext, id: string): InternalAccount {
  const a = ctx.db.get<InternalAccount>('internalAccounts', id)
  if (!a) throw notFound('ACCOUNT_NOT_FOUND', `Internal account ${id}`)
  return a
}

function save(ctx: SandboxContext, a: InternalAccount, dBalance: number, dTotal: number): InternalAccount {
  const next = {
    ...a,
    balance: {...a.balance, amount: a.balance.amount + dBalance},
    totalBalance: {...a.totalBalance, amount: a.totalBalance.amount + dTotal},
    updatedAt: ctx.iso(),
  }
  if (next.balance.amount < 0 || next.totalBalance.amount < next.balance.amount)
    throw new Error(`ledger invariant broken on ${a.id}`)
  // A balance past the largest exact integer would round: the movement is refused whole instead.
  if (!Number.isSafeInteger(next.totalBalance.amount)) {
    throw invalid([
      {
        field: 'amount',
        message: `would take ${a.id} past the largest balance held exactly (${Number.MAX_SAFE_INTEGER} smallest units)`,
      },
    ])
  }
  return ctx.db.put('internalAccounts', a.id, next)
}

/** Money arrives from outside (sandbox fund, incoming transfer, conversion into an internal account). */
export function credit(ctx: SandboxContext, accountId: string, amount: number): InternalAccount {
  const a = getInternalAccount(ctx, accountId)
  bump(ctx, a.balance.currency.code, {fundedIn: amount})
  return save(ctx, a, amount, amount)
}

export function insufficientFunds(a: InternalAccount, amount: number): HttpError {
  return new HttpError(
    400,
    'INSUFFICIENT_FUNDS',
    `${a.id} holds ${a.balance.amount} ${a.balance.currency.code} (smallest units) available; ${amount} needed`,
    {
      accountId: a.id,
      available: a.balance.amount,
      required: amount,
    },
  )
}

/** Execute: moves `amount` from spendable to held. Refused when the spendable balance is short. */
export function hold(ctx: SandboxContext, accountId: string, amount: number): InternalAccount {
  const a = getInternalAccount(ctx, accountId)
  if (a.balance.amount < amount) throw insufficientFunds(a, amount)
  return save(ctx, a, -amount, 0)
}

/** A held payment settled: the funds leave the platform. */
export function settleHeld(ctx: SandboxContext, accountId: string, amount: number): void {
  const a = getInternalAccount(ctx, accountId)
  bump(ctx, a.balance.currency.code, {paidOut: amount})
  save(ctx, a, 0, -amount)
}

/** A held payment failed before settling: the hold is released back to spendable. */
export function releaseHeld(ctx: SandboxContext, accountId: string, amount: number): void {
  save(ctx, getInternalAccount(ctx, accountId), amount, 0)
}

/** A settled payment came back (PAYOUT_RETURNED, refund): credited back to the source account. */
export function returnToAccount(ctx: SandboxContext, accountId: string, amount: number): void {
  const a = getInternalAccount(ctx, accountId)
  bump(ctx, a.balance.currency.code, {paidOut: -amount})
  save(ctx, a, amount, amount)
}

/** Real-time funding: the payer's money arrived and is in flight to the destination. */
export function arriveInTransit(ctx: SandboxContext, currency: string, amount: number): void {
  bump(ctx, currency, {fundedIn: amount, inTransit: amount})
}

/** In-flight real-time funds left: paid out to the destination, or refunded to the payer. */
export function leaveInTransit(ctx: SandboxContext, currency: string, amount: number): void {
  bump(ctx, currency, {inTransit: -amount, paidOut: amount})
}

/** Σ totalBalance + inTransit + paidOut − fundedIn per currency: all zeros when money is conserved. */
export function imbalance(ctx: SandboxContext): Record<string, number> {
  const out: Record<string, number> = {}
  for (const t of ctx.db.all<LedgerTotals>('ledger')) out[t.currency] = t.inTransit + t.paidOut - t.fundedIn
  for (const a of ctx.db.all<InternalAccount>('internalAccounts')) {
    const c = a.totalBalance.currency.code
    out[c] = (out[c] ?? 0) + a.totalBalance.amount
  }
  return out
}
