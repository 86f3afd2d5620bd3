import type {SandboxContext} from '../context.js'
import {HttpError} from '../http-error.js'
import type {StoredCustomer} from './customers.js'
import {getInternalAccount} from './ledger.js'
import {checkCustomerReady} from './quote-rules.js'

/**
 * One rule for money leaving a customer's account (issue 29): whatever operation moves it, the
 * customer is verified and has accepted the terms, the account is the customer's own, and, where the
 * platform requires SCA, the customer holds a session (the quote path's check, wired in emulator.ts).
 * Daily volume and size limits are amount checks of the execution (quote-execute.ts).
 *
 * DEBIT_SITES lists every operation that debits a customer's account, with the checks it is excused
 * from and why. test/integration/debit-sites.test.ts drives each one with a customer who fails the
 * checks, and fails when a debit primitive is called from a file this list does not account for.
 */
export type DebitCheck = 'ready' | 'terms' | 'ownership' | 'sca'

export const DEBIT_SITES = {
  'quote.create': {exempt: {}},
  'quote.execute': {exempt: {}},
  'transfer.out': {exempt: {}},
  'transfer.in': {exempt: {}},
  'sandbox.execute-as-agent': {exempt: {}},
  'sandbox.realtime-funding': {
    exempt: {
      sca: 'the quote was authorized when it was created (PENDING_AUTHORIZATION until then); the money comes from the payer, not a session',
    },
  },
  'card.authorization': {
    exempt: {
      terms:
        'the card was issued to an APPROVED cardholder (POST /cards asks for no terms; the spec ties END_USER_TERMS_NOT_ACCEPTED to quotes), and declining every purchase of an issued card would strand it',
      sca: 'the card network authenticates the cardholder (3-D Secure), not the app session; a declined check is a DECLINED event',
    },
  },
} as const satisfies Record<string, {exempt: Partial<Record<DebitCheck, string>>}>
export type DebitSite = keyof typeof DEBIT_SITES

/** Throws the refusal (the quote path's errors: 403 USER_NOT_READY / END_USER_TERMS_NOT_ACCEPTED / FORBIDDEN, 409 SCA_SESSION_REQUIRED, 423). */
export function checkCustomerDebit(
  ctx: SandboxContext,
  site: DebitSite,
  debit: {customerId: string; accountId?: string},
): StoredCustomer {
  const exempt: Partial<Record<DebitCheck, string>> = DEBIT_SITES[site].exempt
  const customer = checkCustomerReady(ctx, debit.customerId, {terms: !exempt.terms})
  if (debit.accountId?.startsWith('InternalAccount:')) {
    const owner = getInternalAccount(ctx, debit.accountId).customerId
    if (owner && owner !== customer.id)
      throw new HttpError(403, 'FORBIDDEN', `${debit.accountId} belongs to ${owner}, not to ${customer.id}`, {
        accountId: debit.accountId,
        customerId: customer.id,
      })
  }
  if (!exempt.sca) for (const check of ctx.reactions.quoteChecks) check(ctx, customer.id)
  return customer
}
