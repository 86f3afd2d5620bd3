import {createHash} from 'node:crypto'
import {currency as knownCurrency} from '../../lib/currencies.js'
import {
  operatorEnablementRequest,
  providerAccountLinkRequest,
  providerAccountStatusRequest,
  stablecoinRegisterRequest,
} from '../../lib/schemas/stablecoins.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, conflict, notFound, validate} from '../http-error.js'
import {newId} from '../ids.js'
import {internalAccounts} from '../store/accounts.js'
import {
  activeProviderAccounts,
  providerAccountByProviderId,
  stablecoinByNetworkToken,
  stablecoinBySymbol,
} from '../store/stablecoins.js'
import {currencyObject, fundingInstructionsFor, type InternalAccount} from './internal-accounts.js'

/**
 * Stablecoin issuance in the sandbox: provider account links, registered stablecoins and the
 * enablement state machine of spec 3 (a request moves NOT_ENABLED to PENDING_APPROVAL; ENABLING,
 * ENABLED and DISABLED are the operator's, driven here by a sandbox-only control route).
 */
export const DECIMALS = 6
export const BASE_CURRENCY = 'USD'

export interface StoredProviderAccount {
  id: string
  provider: 'BRALE'
  providerAccountId: string
  providerEnvironment: 'SANDBOX'
  status: 'ACTIVE' | 'INVALID' | 'REVOKED'
  /** SHA-256 of the provider secret: kept to notice a relink, never returned. */
  secretSha256: string
  lastVerifiedAt: string
  createdAt: string
  updatedAt: string
}

export interface StoredStablecoin {
  id: string
  name: string
  symbol: string
  baseCurrency: string
  network: 'L2'
  decimals: number
  issuanceStatus: string
  gridOperationsStatus: 'NOT_ENABLED' | 'PENDING_APPROVAL' | 'ENABLING' | 'ENABLED' | 'DISABLED'
  networkTokenIdentifier: string
  currency?: string
  provider: 'BRALE'
  stablecoinProviderAccountId: string
  providerEnvironment: 'SANDBOX'
  providerTokenIdentifier: string
  createdAt: string
  updatedAt: string
}

export function publicProviderAccount(a: StoredProviderAccount) {
  const {secretSha256: _s, ...rest} = a
  return rest
}

/** POST /stablecoin-provider-accounts: the secret is verified (sandbox: accepted) and never returned. */
export function linkProviderAccount(ctx: SandboxContext, body: unknown): StoredProviderAccount {
  const input = validate(providerAccountLinkRequest, body)
  const providerAccountId =
    input.providerAccountId ?? createHash('sha256').update(input.apiClientId).digest('base64url').slice(0, 27)
  const existing = providerAccountByProviderId<StoredProviderAccount>(ctx.db, input.provider, providerAccountId)
  if (existing?.status === 'ACTIVE')
    throw conflict('CONFLICT', `Provider account ${providerAccountId} is linked already as ${existing.id}`, {
      stablecoinProviderAccountId: existing.id,
    })
  const now = ctx.iso()
  const account: StoredProviderAccount = {
    id: newId('StablecoinProviderAccount'),
    provider: input.provider,
    providerAccountId,
    providerEnvironment: 'SANDBOX',
    status: 'ACTIVE',
    secretSha256: createHash('sha256').update(input.apiClientSecret).digest('hex'),
    lastVerifiedAt: now,
    createdAt: now,
    updatedAt: now,
  }
  return ctx.db.put('stablecoinProviderAccounts', account.id, account)
}

export function getProviderAccount(ctx: SandboxContext, id: string): StoredProviderAccount {
  const a = ctx.db.get<StoredProviderAccount>('stablecoinProviderAccounts', id)
  if (!a) throw notFound('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account ${id}`)
  return a
}

/** Sandbox only: what the provider did to a link (revoked the credentials, or they stopped verifying). */
export function sandboxSetProviderAccountStatus(ctx: SandboxContext, id: string, body: unknown): StoredProviderAccount {
  const {status} = validate(providerAccountStatusRequest, body)
  const a = getProviderAccount(ctx, id)
  return ctx.db.put('stablecoinProviderAccounts', id, {...a, status, updatedAt: ctx.iso()})
}

/** A link must be ACTIVE to be used. */
export function usableProviderAccount(ctx: SandboxContext, id: string): StoredProviderAccount {
  const a = getProviderAccount(ctx, id)
  if (a.status === 'REVOKED')
    throw badRequest(
      'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
      `Stablecoin provider account ${id} was revoked; link it again`,
    )
  if (a.status === 'INVALID')
    throw badRequest(
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      `Stablecoin provider account ${id} is not usable; link it again with valid credentials`,
    )
  return a
}

/** The link named, else the only active one; several active links need a choice (spec 7). */
function resolveProviderAccount(ctx: SandboxContext, given: string | undefined): StoredProviderAccount {
  if (given) return usableProviderAccount(ctx, given)
  const active = activeProviderAccounts<StoredProviderAccount>(ctx.db)
  if (active.length === 0)
    throw notFound(
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      'An active stablecoin provider account link (link one first)',
    )
  if (active.length > 1) {
    throw badRequest(
      'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      `${active.length} provider account links are active; pass stablecoinProviderAccountId to choose one`,
      {
        stablecoinProviderAccountIds: active.map((a) => a.id),
      },
    )
  }
  return active[0]
}

/** POST /stablecoins: registers a provider-created token; symbol and network token id are unique. */
export function registerStablecoin(ctx: SandboxContext, body: unknown): StoredStablecoin {
  const input = validate(stablecoinRegisterRequest, body)
  const account = resolveProviderAccount(ctx, input.stablecoinProviderAccountId)
  const symbol = input.providerTokenIdentifier
  if (stablecoinBySymbol(ctx.db, symbol) || knownCurrency(symbol))
    throw conflict('STABLECOIN_SYMBOL_ALREADY_EXISTS', `The symbol ${symbol} is taken already on this platform`)
  if (stablecoinByNetworkToken(ctx.db, input.networkTokenIdentifier)) {
    throw conflict(
      'STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS',
      `The network token identifier ${input.networkTokenIdentifier} is registered already`,
    )
  }
  const now = ctx.iso()
  const coin: StoredStablecoin = {
    id: newId('Stablecoin'),
    name: `${symbol} Dollar`,
    symbol,
    baseCurrency: BASE_CURRENCY,
    network: 'L2',
    decimals: DECIMALS,
    issuanceStatus: 'PROVISIONED',
    gridOperationsStatus: 'NOT_ENABLED',
    networkTokenIdentifier: input.networkTokenIdentifier,
    provider: account.provider,
    stablecoinProviderAccountId: account.id,
    providerEnvironment: 'SANDBOX',
    providerTokenIdentifier: symbol,
    createdAt: now,
    updatedAt: now,
  }
  return ctx.db.put('stablecoins', coin.id, coin)
}

export function getStablecoin(ctx: SandboxContext, id: string): StoredStablecoin {
  const c = ctx.db.get<StoredStablecoin>('stablecoins', id)
  if (!c) throw notFound('STABLECOIN_NOT_FOUND', `Stablecoin ${id}`)
  return c
}

/** The platform's own internal account holding the coin once it is ENABLED. */
export function stablecoinAccount(ctx: SandboxContext, coin: StoredStablecoin): InternalAccount | undefined {
  return internalAccounts(ctx.db, {customerId: null, currency: coin.symbol})[0]
}

/** Request enablement: NOT_ENABLED -> PENDING_APPROVAL; a repeat while PENDING_APPROVAL succeeds. */
export function requestEnablement(ctx: SandboxContext, id: string): StoredStablecoin {
  const coin = getStablecoin(ctx, id)
  if (coin.gridOperationsStatus === 'PENDING_APPROVAL') return coin
  if (coin.gridOperationsStatus !== 'NOT_ENABLED') {
    throw new HttpError(
      409,
      'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE',
      `${id} is ${coin.gridOperationsStatus}: that state is driven by the operator and cannot be requested`,
      {gridOperationsStatus: coin.gridOperationsStatus},
    )
  }
  return ctx.db.put('stablecoins', id, {...coin, gridOperationsStatus: 'PENDING_APPROVAL', updatedAt: ctx.iso()})
}

/**
 * Sandbox only: the operator's move. ENABLED gives the coin its Service currency and the platform an
 * internal account in it (mints can land there, burns can draw from it).
 */
export function operatorSetEnablement(ctx: SandboxContext, id: string, body: unknown): StoredStablecoin {
  const {status} = validate(operatorEnablementRequest, body)
  const coin = getStablecoin(ctx, id)
  if (coin.gridOperationsStatus === 'NOT_ENABLED') {
    throw new HttpError(
      409,
      'INVALID_STATE_TRANSITION',
      `${id} is NOT_ENABLED: the platform requests enablement first (POST /stablecoins/${id}/enablement)`,
    )
  }
  const now = ctx.iso()
  const next: StoredStablecoin = {
    ...coin,
    gridOperationsStatus: status,
    updatedAt: now,
    ...(status === 'ENABLED' ? {currency: coin.symbol} : {}),
  }
  if (status === 'ENABLED' && !stablecoinAccount(ctx, coin)) {
    const cur = {code: coin.symbol, name: coin.name, symbol: coin.symbol, decimals: coin.decimals}
    platformAccount(ctx, 'INTERNAL_CRYPTO', cur, [])
  }
  // Mints funded from an internal account draw on the platform's own fiat, never a customer's (issue 29 F3).
  if (status === 'ENABLED' && !platformFiatAccount(ctx, coin.baseCurrency)) {
    const id = newId('InternalAccount')
    platformAccount(
      ctx,
      'INTERNAL_FIAT',
      currencyObject(coin.baseCurrency),
      fundingInstructionsFor(coin.baseCurrency, id),
      id,
    )
  }
  return ctx.db.put('stablecoins', id, next)
}

/** The platform's own (customer-less) fiat account in `currency`: what funds a GRID_INTERNAL_ACCOUNT mint. */
export function platformFiatAccount(ctx: SandboxContext, currency: string): InternalAccount | undefined {
  return internalAccounts(ctx.db, {customerId: null, currency, type: 'INTERNAL_FIAT'})[0]
}

function platformAccount(
  ctx: SandboxContext,
  type: InternalAccount['type'],
  cur: InternalAccount['balance']['currency'],
  fundingPaymentInstructions: InternalAccount['fundingPaymentInstructions'],
  accountId = newId('InternalAccount'),
): InternalAccount {
  const now = ctx.iso()
  return ctx.db.put('internalAccounts', accountId, {
    id: accountId,
    type,
    status: 'ACTIVE',
    balance: {amount: 0, currency: cur},
    totalBalance: {amount: 0, currency: cur},
    fundingPaymentInstructions,
    createdAt: now,
    updatedAt: now,
  } satisfies InternalAccount)
}
