import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, conflict, invalid} from '../http-error.js'
import {getCustomer, type StoredCustomer} from './customers.js'
import {railsOf, validationPending, type StoredExternalAccount} from './external-accounts.js'
import {toUsdCents} from './rates.js'

/** NACHA per-entry limit for same-day ACH: $1,000,000 (in US cents). */
export const NACHA_SAME_DAY_LIMIT_CENTS = 100_000_000

/** Money movement needs an APPROVED customer and, on unregulated platforms, end-user terms on file. */
export function checkCustomerReady(
  ctx: SandboxContext,
  customerId: string,
  opts: {terms?: boolean} = {},
): StoredCustomer {
  const c = getCustomer(ctx, customerId)
  const status = c.customerType === 'BUSINESS' ? c.kybStatus : c.kycStatus
  if (status !== 'APPROVED') {
    throw new HttpError(
      403,
      'USER_NOT_READY',
      `${c.id} is not verified (${c.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus'} ${status ?? 'UNVERIFIED'}); money movement unlocks at APPROVED`,
      {customerId: c.id, status},
    )
  }
  if (opts.terms !== false && !ctx.config().isRegulatedFinancialInstitution && !c.endUserTermsConsent) {
    throw new HttpError(403, 'END_USER_TERMS_NOT_ACCEPTED', `${c.id} has not accepted the end-user terms`, {
      customerId: c.id,
    })
  }
  return c
}

/** The rail of an external destination: named rails must exist there; ACH_SAME_DAY is never picked by default. */
export function pickRail(a: StoredExternalAccount | undefined, rail: string | undefined): string | undefined {
  const rails = a ? railsOf(a) : []
  if (rail && !rails.includes(rail)) {
    throw invalid([
      {
        field: 'destination.paymentRail',
        message: rails.length
          ? `must be one of ${rails.join(', ')} for this destination`
          : 'is not used for this destination (wallets and internal accounts have no rail)',
      },
    ])
  }
  return rail ?? rails[0]
}

/** Destination state: validation pending, and ownership verification above the threshold (spec 3). */
export function checkDestination(
  ctx: SandboxContext,
  a: StoredExternalAccount,
  receiving: {code: string; amount: number},
): void {
  if (a.status === 'PENDING') throw validationPending(a)
  if (a.status === 'INACTIVE' || a.status === 'UNDER_REVIEW')
    throw conflict('INVALID_STATE_TRANSITION', `${a.id} is ${a.status} and cannot receive`)
  if (a.status === 'PENDING_OWNERSHIP_VERIFICATION' || a.status === 'UNVERIFIED') {
    const threshold = ctx.settings().ownershipVerificationThresholdUsdCents
    const usd = toUsdCents(ctx, receiving.code, receiving.amount)
    if (usd > threshold) {
      throw badRequest(
        'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
        `${a.id} is ${a.status}; above USD ${(threshold / 100).toFixed(2)} its ownership must be verified first`,
        {accountId: a.id, thresholdUsdCents: threshold, amountUsdCents: usd},
      )
    }
  }
}

/** Single-transaction maximum per corridor (`SRC-DST`) or sending currency, and the NACHA same-day limit. */
export function checkSize(
  ctx: SandboxContext,
  from: string,
  to: string,
  sending: number,
  receiving: number,
  rail: string | undefined,
): void {
  const limits = ctx.settings().transactionSizeLimits
  const limit = limits[`${from}-${to}`] ?? limits[from]
  if (limit !== undefined && sending > limit) {
    throw badRequest(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `${sending} ${from} (smallest units) is above the ${from}→${to} single-transaction maximum of ${limit}`,
      {limit, amount: sending, currency: from},
    )
  }
  if (rail === 'ACH_SAME_DAY' && receiving > NACHA_SAME_DAY_LIMIT_CENTS) {
    throw badRequest(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `Same-day ACH is limited to USD 1,000,000.00 per entry (NACHA); use ACH or WIRE`,
      {limit: NACHA_SAME_DAY_LIMIT_CENTS, amount: receiving, rail},
    )
  }
}

const today = (ctx: SandboxContext) => ctx.iso().slice(0, 10)

/** Platform-wide volume executed per UTC day (429 DAILY_VOLUME_LIMIT_EXCEEDED, never retried). */
export function checkDailyVolume(ctx: SandboxContext, code: string, amount: number): number {
  const cents = toUsdCents(ctx, code, amount)
  const used = ctx.db.get<number>('dailyVolume', today(ctx)) ?? 0
  const limit = ctx.settings().dailyVolumeLimitUsdCents
  if (used + cents > limit) {
    throw new HttpError(
      429,
      'DAILY_VOLUME_LIMIT_EXCEEDED',
      `The platform's daily volume limit (USD ${(limit / 100).toFixed(2)}) would be exceeded`,
      {limitUsdCents: limit, usedUsdCents: used},
    )
  }
  return cents
}

export function addDailyVolume(ctx: SandboxContext, cents: number): void {
  ctx.db.put('dailyVolume', today(ctx), (ctx.db.get<number>('dailyVolume', today(ctx)) ?? 0) + cents)
}
