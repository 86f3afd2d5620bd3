import {WALLET_KINDS, sameAddress} from '../../lib/account-checks.js'
import {primaryIdentifier, type ExternalAccountCreateRequest} from '../../lib/schemas/accounts.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, conflict, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {externalAccountsOf} from '../store/accounts.js'
import {getCustomer} from './customers.js'
import {beneficiaryStatus, suffixOf} from './payout-patterns.js'
import type {StoredChallenge, StoredExternalAccount} from '../store/accounts.js'
export type {StoredChallenge, StoredExternalAccount}

const RAILS: Record<string, string[]> = {
  USD_ACCOUNT: ['ACH', 'ACH_SAME_DAY', 'WIRE', 'RTP', 'FEDNOW'],
  CLABE: ['SPEI'],
  MXN_ACCOUNT: ['SPEI'],
  EUR_ACCOUNT: ['SEPA', 'SEPA_INSTANT'],
  BRL_ACCOUNT: ['PIX'],
  GBP_ACCOUNT: ['FASTER_PAYMENTS'],
}

export function railsOf(a: StoredExternalAccount): string[] {
  return RAILS[a.accountInfo.accountType] ?? []
}

/** Self-custody crypto wallets (no VASP) are the ones whose ownership can be verified (spec 3). */
export function isSelfCustodyWallet(a: Pick<StoredExternalAccount, 'accountInfo'>): boolean {
  return Boolean(WALLET_KINDS[a.accountInfo.accountType]) && !a.accountInfo.vaspName
}

export function publicExternalAccount(a: StoredExternalAccount): Record<string, unknown> {
  const {challenge: _c, challengeLog: _l, trustChallenge: _t, isDeleted: _d, ...rest} = a
  const rails = railsOf(a)
  return {
    ...rest,
    accountInfo: {...a.accountInfo, ...(rails.length ? {paymentRails: rails.filter((r) => r !== 'ACH_SAME_DAY')} : {})},
  }
}

export function getExternalAccount(ctx: SandboxContext, id: string): StoredExternalAccount {
  const a = ctx.db.get<StoredExternalAccount>('externalAccounts', id)
  if (!a || a.isDeleted) throw notFound('ACCOUNT_NOT_FOUND', `External account ${id}`)
  return a
}

const family = (t: string) => (t === 'MXN_ACCOUNT' ? 'CLABE' : t)

function sameAccount(a: StoredExternalAccount, input: ExternalAccountCreateRequest): boolean {
  const info = input.accountInfo as Record<string, unknown> & {accountType: string}
  if (a.isDeleted || a.customerId !== input.customerId || a.currency !== input.currency) return false
  if (family(a.accountInfo.accountType) !== family(info.accountType)) return false
  const [x, y] = [primaryIdentifier(a.accountInfo), primaryIdentifier(info)]
  if (!sameAddress(info.accountType, x, y)) return false
  return info.accountType !== 'USD_ACCOUNT' || a.accountInfo.routingNumber === info.routingNumber
}

/** Creates an external account, after every rule that can refuse it (nothing is stored on refusal). */
export function createExternalAccount(ctx: SandboxContext, input: ExternalAccountCreateRequest): StoredExternalAccount {
  if (input.customerId) getCustomer(ctx, input.customerId)
  const info = input.accountInfo as StoredExternalAccount['accountInfo']
  const existing = externalAccountsOf(ctx.db, input.customerId).find((a) => sameAccount(a, input))
  if (existing?.status === 'PENDING' && existing.accountInfo.accountType === 'USD_ACCOUNT') {
    throw conflict(
      'BANK_ACCOUNT_VALIDATION_PENDING',
      `This US bank account (${existing.id}) is still being validated (micro-entries and a return window of a few banking days)`,
      {
        existingAccount: publicExternalAccount(existing),
      },
    )
  }
  if (existing)
    throw conflict('DUPLICATE_EXTERNAL_ACCOUNT', `An equivalent external account exists: ${existing.id}`, {
      existingAccount: publicExternalAccount(existing),
    })
  if (suffixOf(info) === '105')
    throw badRequest('INVALID_BANK_ACCOUNT', 'The account failed validation (sandbox suffix 105)')
  const selfCustody = isSelfCustodyWallet({accountInfo: info})
  const ownershipType = input.ownershipType ?? (selfCustody ? 'FIRST_PARTY' : undefined)
  const validating = info.accountType === 'USD_ACCOUNT' && ctx.settings().bankValidationMs > 0
  const status: StoredExternalAccount['status'] =
    selfCustody && ownershipType === 'FIRST_PARTY'
      ? 'PENDING_OWNERSHIP_VERIFICATION'
      : validating
        ? 'PENDING'
        : 'ACTIVE'
  const now = ctx.iso()
  const account: StoredExternalAccount = {
    id: newId('ExternalAccount'),
    ...(input.customerId ? {customerId: input.customerId} : {}),
    status,
    currency: input.currency,
    ...(input.platformAccountId ? {platformAccountId: input.platformAccountId} : {}),
    ...(ownershipType ? {ownershipType} : {}),
    defaultUmaDepositAccount: input.defaultUmaDepositAccount ?? false,
    ...(WALLET_KINDS[info.accountType] ? {} : {beneficiaryVerificationStatus: beneficiaryStatus(info)}),
    accountInfo: info,
    trusted: false,
    isDeleted: false,
    createdAt: now,
    updatedAt: now,
  }
  ctx.db.put('externalAccounts', account.id, account)
  if (validating) ctx.scheduler.after(ctx.settings().bankValidationMs, 'externalAccount.validated', {id: account.id})
  return account
}

/** Saves a status change and emits EXTERNAL_ACCOUNT.STATUS_UPDATED with the account. */
export function setStatus(
  ctx: SandboxContext,
  a: StoredExternalAccount,
  status: StoredExternalAccount['status'],
  patch: Partial<StoredExternalAccount> = {},
): StoredExternalAccount {
  const next = ctx.db.put('externalAccounts', a.id, {...a, ...patch, status, updatedAt: ctx.iso()})
  if (a.status !== status) ctx.webhooks.emit('EXTERNAL_ACCOUNT.STATUS_UPDATED', publicExternalAccount(next))
  return next
}

export function deleteExternalAccount(ctx: SandboxContext, a: StoredExternalAccount): void {
  if (a.trusted) throw conflict('BENEFICIARY_TRUSTED', `${a.id} is a trusted beneficiary; untrust it before deleting`)
  ctx.db.put('externalAccounts', a.id, {...a, isDeleted: true, updatedAt: ctx.iso()})
}

export function registerExternalAccountJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('externalAccount.validated', (p) => {
    const a = ctx.db.get<StoredExternalAccount>('externalAccounts', String(p.id))
    if (a && !a.isDeleted && a.status === 'PENDING') setStatus(ctx, a, 'ACTIVE')
  })
}

export function validationPending(a: StoredExternalAccount): HttpError {
  return conflict(
    'BANK_ACCOUNT_VALIDATION_PENDING',
    `${a.id} is still being validated (micro-entries, a few banking days); it cannot receive yet`,
  )
}
