import {createHash} from 'node:crypto'
import {burnRequest, mintRequest} from '../../lib/schemas/stablecoins.js'
import type {SandboxContext} from '../context.js'
import {HttpError, badRequest, notFound, validate} from '../http-error.js'
import {newId} from '../ids.js'
import type {EmuRequest} from '../router.js'
import type {StoredExternalAccount} from './external-accounts.js'
import {checkCreditFits} from './credit-fits.js'
import {credit, getInternalAccount, hold, settleHeld} from './ledger.js'
import {
  type StoredStablecoin,
  getStablecoin,
  platformFiatAccount,
  stablecoinAccount,
  usableProviderAccount,
} from './stablecoins.js'

/**
 * Mints and burns. Money that enters or leaves the platform goes through the ledger so its
 * invariant holds: a mint funded from an internal fiat account holds the fiat at once and pays it
 * out on settlement; a mint into the platform's stablecoin account credits it on settlement; a
 * burn from that account holds the coins at once and pays them out on settlement. Operations on
 * external wallets and provider balances never touch the platform's books.
 */
export interface StoredOperation {
  id: string
  stablecoinId: string
  operationType: 'MINT' | 'BURN'
  status: 'CREATED' | 'PENDING_FUNDING' | 'PENDING_PROVIDER' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED'
  amount: string
  provider: string
  providerEnvironment: string
  stablecoinProviderAccountId: string
  source?: Record<string, unknown>
  destination?: Record<string, unknown>
  fundingInstructions?: Record<string, unknown>
  estimatedDelivery?: Record<string, unknown>
  expiresAt?: string
  providerStatus?: string
  description?: string
  createdAt: string
  updatedAt: string
  /** Ledger effects still due at settlement (not part of the API object). */
  _ledger?: {releaseHeld?: {accountId: string; amount: number}; creditOnSettle?: {accountId: string; amount: number}}
}

const SETTLE = 'stablecoin.settle'
const PENDING_FUNDING_TTL_MS = 7 * 86_400_000

export function publicOperation(op: StoredOperation) {
  const {_ledger, ...rest} = op
  return rest
}

/** The amount as an integer, refused when it is zero, unsafe, or finer than a whole cent (spec 7). */
function units(coin: StoredStablecoin, amount: string): {amount: number; cents: number} {
  const n = Number(amount)
  if (n <= 0)
    throw badRequest('INVALID_INPUT', 'Invalid input: amount', {
      errors: [{field: 'amount', message: 'must be more than 0'}],
    })
  const perCent = 10 ** Math.max(0, coin.decimals - 2)
  if (!Number.isSafeInteger(n) || n % perCent !== 0) {
    throw badRequest(
      'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
      `${amount} ${coin.symbol} smallest units is not a whole number of ${coin.baseCurrency} cents (a multiple of ${perCent}, at most ${Number.MAX_SAFE_INTEGER})`,
      {
        amount,
        decimals: coin.decimals,
        multipleOf: String(perCent),
      },
    )
  }
  return {amount: n, cents: n / perCent}
}

function externalAccount(ctx: SandboxContext, id: string, field: string): StoredExternalAccount {
  const a = ctx.db.get<StoredExternalAccount>('externalAccounts', id)
  if (!a || a.isDeleted) throw new HttpError(404, 'ACCOUNT_NOT_FOUND', `External account ${id} (${field}) not found`)
  return a
}

const isWallet = (a: StoredExternalAccount) => /WALLET|BITCOIN|LIGHTNING|SPARK/.test(a.accountInfo.accountType)

/** Moves into the platform's stablecoin account need the coin ENABLED for Service operations. */
function platformCoinAccount(ctx: SandboxContext, coin: StoredStablecoin, accountId: string, field: string) {
  if (coin.gridOperationsStatus !== 'ENABLED') {
    throw badRequest(
      'STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED',
      `${coin.id} is ${coin.gridOperationsStatus}; internal accounts hold it only once ENABLED`,
    )
  }
  const own = stablecoinAccount(ctx, coin)
  if (!own || own.id !== accountId)
    throw badRequest('INVALID_INPUT', `Invalid input: ${field}`, {
      errors: [{field, message: `must be the platform's ${coin.symbol} account${own ? ` (${own.id})` : ''}`}],
    })
  return own
}

/**
 * A GRID_INTERNAL_ACCOUNT mint is the platform spending its own fiat, as a burn spends its own coins:
 * a customer's account would be a debit with none of a customer payment's checks (issue 29 F3).
 */
function platformFiatSource(ctx: SandboxContext, coin: StoredStablecoin, accountId: string) {
  const fiat = getInternalAccount(ctx, accountId)
  const own = platformFiatAccount(ctx, coin.baseCurrency)
  if (fiat.customerId || fiat.balance.currency.code !== coin.baseCurrency || fiat.type !== 'INTERNAL_FIAT')
    throw badRequest('INVALID_INPUT', 'Invalid input: fundingSource.accountId', {
      errors: [
        {
          field: 'fundingSource.accountId',
          message: `must be the platform's own ${coin.baseCurrency} internal account${own ? ` (${own.id})` : ''}${fiat.customerId ? `, not an account of ${fiat.customerId}` : ''}`,
        },
      ],
    })
  return fiat
}

function base(ctx: SandboxContext, coin: StoredStablecoin, type: 'MINT' | 'BURN', amount: string) {
  const account = usableProviderAccount(ctx, coin.stablecoinProviderAccountId)
  if (coin.issuanceStatus !== 'PROVISIONED')
    throw badRequest('STABLECOIN_NOT_PROVISIONED', `${coin.id} is ${coin.issuanceStatus} with the provider`)
  const now = ctx.iso()
  return {
    id: newId('StablecoinOperation'),
    stablecoinId: coin.id,
    operationType: type,
    amount,
    provider: coin.provider,
    providerEnvironment: account.providerEnvironment,
    stablecoinProviderAccountId: account.id,
    createdAt: now,
    updatedAt: now,
  }
}

function depositInstructions(coin: StoredStablecoin, opId: string) {
  const address = 'spark1' + createHash('sha256').update(opId).digest('hex').slice(0, 40)
  return {rail: 'L2', network: 'L2', address, valueType: coin.symbol}
}

export function mint(req: EmuRequest, stablecoinId: string) {
  const ctx = req.ctx
  const coin = getStablecoin(ctx, stablecoinId)
  const input = validate(mintRequest, req.body)
  const {amount, cents} = units(coin, input.amount)
  const op: StoredOperation = {
    ...base(ctx, coin, 'MINT', input.amount),
    status: 'PROCESSING',
    source: input.fundingSource,
    destination: input.destination,
    ...(input.description ? {description: input.description} : {}),
  }
  const ledger: NonNullable<StoredOperation['_ledger']> = {}
  // Checks first (nothing changes until every one passed), then the holds.
  const dest = input.destination.accountId
  if (dest.startsWith('InternalAccount:')) {
    const coins = platformCoinAccount(ctx, coin, dest, 'destination.accountId')
    // Credited at settlement (a job): refused now if it would not fit then (issue 29 F18).
    checkCreditFits(ctx, coins, amount, 'amount')
    ledger.creditOnSettle = {accountId: coins.id, amount}
  } else if (externalAccount(ctx, dest, 'destination.accountId').accountInfo.accountType !== 'L2_WALLET') {
    throw badRequest(
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
      `${dest} is not an L2 wallet; minted ${coin.symbol} goes to an L2_WALLET external account or the platform's ${coin.symbol} account`,
    )
  }
  const fs = input.fundingSource
  if (fs.type === 'PROVIDER_INTERNAL_BALANCE')
    throw badRequest(
      'STABLECOIN_OPERATION_NOT_SUPPORTED',
      'Mints funded from a provider internal balance are not supported yet',
    )
  if (fs.type === 'ACH_DEBIT' || fs.type === 'SAME_DAY_ACH_DEBIT') {
    const bank = externalAccount(ctx, fs.externalAccountId, 'fundingSource.externalAccountId')
    if (isWallet(bank) || bank.currency !== coin.baseCurrency)
      throw badRequest(
        'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
        `${bank.id} is not a ${coin.baseCurrency} bank account that can be debited`,
      )
  }
  if (fs.type === 'GRID_INTERNAL_ACCOUNT') {
    const fiat = platformFiatSource(ctx, coin, fs.accountId)
    hold(ctx, fiat.id, cents)
    ledger.releaseHeld = {accountId: fiat.id, amount: cents}
  }
  if (fs.type === 'WIRE') {
    op.status = 'PENDING_FUNDING'
    op.fundingInstructions = {
      rail: 'WIRE',
      currency: coin.baseCurrency,
      amount: String(cents),
      bankName: 'Sandbox Provider Bank',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      reference: op.id.slice(-12),
    }
    op.expiresAt = ctx.iso(ctx.now() + PENDING_FUNDING_TTL_MS)
  }
  return {status: 201, body: publicOperation(start(ctx, {...op, _ledger: ledger}))}
}

export function burn(req: EmuRequest, stablecoinId: string) {
  const ctx = req.ctx
  const coin = getStablecoin(ctx, stablecoinId)
  const input = validate(burnRequest, req.body)
  const {amount, cents} = units(coin, input.amount)
  const op: StoredOperation = {
    ...base(ctx, coin, 'BURN', input.amount),
    status: 'PROCESSING',
    source: input.source,
    destination: {accountId: input.destination.externalAccountId, rail: input.destination.rail},
    ...(input.description ? {description: input.description} : {}),
  }
  const bank = externalAccount(ctx, input.destination.externalAccountId, 'destination.externalAccountId')
  if (isWallet(bank) || bank.currency !== coin.baseCurrency)
    throw badRequest(
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
      `${bank.id} is not a ${coin.baseCurrency} bank account for the redemption`,
    )
  op.estimatedDelivery = {
    rail: input.destination.rail,
    amount: String(cents),
    currency: coin.baseCurrency,
    timing:
      input.destination.rail === 'WIRE' || input.destination.rail === 'RTP_CREDIT' ? 'same day' : '1-3 business days',
  }
  const ledger: NonNullable<StoredOperation['_ledger']> = {}
  const src = input.source
  if (src.type === 'GRID_INTERNAL_ACCOUNT') {
    const own = platformCoinAccount(ctx, coin, src.accountId, 'source.accountId')
    hold(ctx, own.id, amount)
    ledger.releaseHeld = {accountId: own.id, amount}
  }
  if (src.type === 'EXTERNAL_ACCOUNT') {
    op.status = 'PENDING_FUNDING'
    op.fundingInstructions = depositInstructions(coin, op.id)
    op.expiresAt = ctx.iso(ctx.now() + PENDING_FUNDING_TTL_MS)
  }
  return {status: 201, body: publicOperation(start(ctx, {...op, _ledger: ledger}))}
}

/**
 * Neither the spec (section 6 names no stablecoin event; 2.13 and 4.7 give no shapes) nor the
 * contract's `webhooks:` has an operation event, so an operation is followed by polling it. What the
 * contract does have is INTERNAL_ACCOUNT.BALANCE_UPDATED with the full account: sent whenever a mint
 * or burn moves a platform balance (the hold at creation, the settlement). Operations off the
 * platform's books announce nothing.
 */
function balanceUpdated(ctx: SandboxContext, accountId: string): void {
  ctx.webhooks.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', getInternalAccount(ctx, accountId))
}

/** Stores a new operation, announces the balance it held, and schedules its settlement. */
function start(ctx: SandboxContext, op: StoredOperation): StoredOperation {
  ctx.db.put('stablecoinOperations', op.id, op)
  if (op._ledger?.releaseHeld) balanceUpdated(ctx, op._ledger.releaseHeld.accountId)
  ctx.scheduler.after(ctx.settings().stablecoinSettlementDelayMs ?? 500, SETTLE, {operationId: op.id})
  return op
}

/** Settlement (sandbox: the provider reports funds received / transfer done): ledger effects, COMPLETED, webhook. */
export function registerStablecoinSettler(ctx: SandboxContext): void {
  ctx.scheduler.on(SETTLE, (payload) => settleOperation(ctx, String(payload.operationId)))
}

/** Settles one operation (the scheduled job; tests call it to order settlements themselves). Idempotent. */
export function settleOperation(ctx: SandboxContext, operationId: string): void {
  const op = ctx.db.get<StoredOperation>('stablecoinOperations', operationId)
  if (!op || op.status === 'COMPLETED' || op.status === 'FAILED' || op.status === 'EXPIRED') return
  if (op._ledger?.releaseHeld) settleHeld(ctx, op._ledger.releaseHeld.accountId, op._ledger.releaseHeld.amount)
  if (op._ledger?.creditOnSettle) credit(ctx, op._ledger.creditOnSettle.accountId, op._ledger.creditOnSettle.amount)
  const done: StoredOperation = {...op, status: 'COMPLETED', providerStatus: 'complete', updatedAt: ctx.iso()}
  delete done.expiresAt
  delete done._ledger
  ctx.db.put('stablecoinOperations', op.id, done)
  for (const moved of [op._ledger?.releaseHeld, op._ledger?.creditOnSettle])
    if (moved) balanceUpdated(ctx, moved.accountId)
}

export function getOperation(ctx: SandboxContext, id: string): StoredOperation {
  const op = ctx.db.get<StoredOperation>('stablecoinOperations', id)
  if (!op) throw notFound('STABLECOIN_OPERATION_NOT_FOUND', `Stablecoin operation ${id}`)
  return op
}
