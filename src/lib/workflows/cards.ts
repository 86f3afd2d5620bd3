// Client half: the card commands' multi-step work (waits, state changes, simulations). The sandbox's card rules are emulator/domain/cards.ts.
import {getCard, sandboxEvents, simulateCard, updateCard, type SandboxEvent} from '../api/cards.js'
import {getInternalAccount} from '../api/accounts.js'
import type {Context} from '../context.js'
import {InputError, stillPending} from '../errors.js'
import {interrupts} from '../interrupt.js'
import {MoneyError, parseMinor, toMinor} from '../money.js'
import {cardSimulationBody, type Card, type CardSimulator} from '../schemas/cards.js'
import {checkWith} from '../validate.js'

/** Follows a new card until it leaves PROCESSING (ACTIVE, or CLOSED when the issuer rejected it); exit 8 at --timeout. */
export async function waitForCard(ctx: Context, id: string): Promise<Card> {
  return interrupts.during({doing: `${id} is being provisioned by the issuer`, resume: `svc cards get ${id}`}, () =>
    pollCard(ctx, id),
  )
}

async function pollCard(ctx: Context, id: string): Promise<Card> {
  let delay = 100
  for (;;) {
    const card = await ctx.client.call(getCard(id))
    if (card.state !== 'PROCESSING') return card
    if (ctx.remainingMs() <= 0)
      throw stillPending(`${id} is still PROCESSING at --timeout`, `Check later with \`svc cards get ${id}\`.`)
    await ctx.sleep(Math.min(delay, ctx.remainingMs()))
    delay = Math.min(delay * 2, 1000)
  }
}

/** freeze / unfreeze / close: one PATCH of `state`; refusals (409) carry the API's code. */
export function cardStateRequest(id: string, state: 'ACTIVE' | 'FROZEN' | 'CLOSED') {
  return updateCard(id, {state})
}

/** An amount flag in real units ("12.50") or smallest units, checked for form before anything is sent. */
export interface AmountInput {
  amount?: string
  amountMinor?: string
}

export function checkAmountForm(a: AmountInput): void {
  if (a.amount !== undefined && !/^\d+(\.\d+)?$/.test(a.amount.trim()))
    throw new InputError([{field: 'amount', message: `"${a.amount}" is not a decimal amount (e.g. 12.50)`}])
  if (a.amountMinor !== undefined && !/^\d+$/.test(a.amountMinor.trim()))
    throw new InputError([
      {field: 'amount', message: `--amount-minor "${a.amountMinor}" must be a whole number of smallest units`},
    ])
}

export function toMinorOrFail(value: string, decimals: number): number {
  try {
    return toMinor(value, decimals)
  } catch (e) {
    throw e instanceof MoneyError ? new InputError([{field: 'amount', message: e.message}]) : e
  }
}

/** A limit in real units of the card currency: the currency of the first funding account. */
export async function maxSpendMinor(
  ctx: Context,
  value: string,
  accountId: string,
  customerId: string,
): Promise<number> {
  const account = await getInternalAccount(ctx.client, accountId, customerId)
  return toMinorOrFail(value, account.balance.currency.decimals ?? 2)
}

export interface SimulationInput extends AmountInput {
  currency?: string
  descriptor?: string
  mcc?: string
  country?: string
  transaction?: string
  /** exception_resolution: SETTLE or RETURN. */
  resolution?: string
}

/** `svc sandbox card`'s flags as a simulation's input. */
export function simulationInputOf(
  f: Omit<SimulationInput, 'amountMinor'> & {'amount-minor'?: string},
): SimulationInput {
  const {amount, currency, descriptor, mcc, country, transaction, resolution} = f
  return {amount, amountMinor: f['amount-minor'], currency, descriptor, mcc, country, transaction, resolution}
}

/** The line that says what a simulation's webhook carried: type, transaction, status and decline reason. */
export function cardEventSummary(event: SandboxEvent): string {
  const d = (event.data ?? {}) as {id?: string; status?: string; declineReason?: string}
  return [event.type, d.id, d.status, d.declineReason && `(${d.declineReason})`].filter(Boolean).join(' ')
}

const NEEDS_MERCHANT = new Set<CardSimulator>([
  'authorization',
  'balance_inquiry',
  'credit_authorization',
  'credit_authorization_advice',
  'financial_authorization',
  'financial_credit_authorization',
])
const NEEDS_AMOUNT = new Set<CardSimulator>([
  'authorization',
  'credit_authorization',
  'credit_authorization_advice',
  'financial_authorization',
  'financial_credit_authorization',
  'clearing',
  'authorization_advice',
  'return',
])

/**
 * The simulator's body from flags, checked against the shared schema before any request (every
 * bad field named, exit 2). An amount in real units without --currency is converted once the
 * card's currency is known: `resolve` gives the final body.
 */
export function simulationBody(
  kind: CardSimulator,
  f: SimulationInput,
): {body: Record<string, unknown>; needsCurrency: boolean} {
  checkAmountForm(f)
  const errors: Array<{field: string; message: string}> = []
  if (NEEDS_AMOUNT.has(kind) && f.amount === undefined && f.amountMinor === undefined)
    errors.push({field: 'amount', message: `${kind} needs --amount <real units> or --amount-minor <smallest units>`})
  if (!NEEDS_AMOUNT.has(kind) && (f.amount !== undefined || f.amountMinor !== undefined))
    errors.push({field: 'amount', message: `${kind} takes no amount`})
  if (NEEDS_MERCHANT.has(kind) && !f.descriptor)
    errors.push({
      field: 'merchant.descriptor',
      message: `${kind} needs --descriptor (its last three characters pick the sandbox outcome)`,
    })
  if (!NEEDS_MERCHANT.has(kind) && !f.transaction)
    errors.push({field: 'cardTransactionId', message: `${kind} needs --transaction CardTransaction:<id>`})
  if (NEEDS_MERCHANT.has(kind) && f.transaction)
    errors.push({field: 'cardTransactionId', message: `${kind} starts a new transaction; --transaction does not apply`})
  if (kind === 'exception_resolution' && !f.resolution)
    errors.push({field: 'resolution', message: 'exception_resolution needs --resolution SETTLE or RETURN'})
  if (kind !== 'exception_resolution' && f.resolution)
    errors.push({field: 'resolution', message: `${kind} takes no --resolution (only exception_resolution)`})
  if (errors.length) throw new InputError(errors)
  const body: Record<string, unknown> = {}
  const needsCurrency = NEEDS_MERCHANT.has(kind) && kind !== 'balance_inquiry'
  if (NEEDS_MERCHANT.has(kind))
    body.merchant = {
      descriptor: f.descriptor,
      ...(f.mcc ? {mcc: f.mcc} : {}),
      ...(f.country ? {country: f.country} : {}),
    }
  if (f.transaction) body.cardTransactionId = f.transaction
  if (f.resolution) body.resolution = f.resolution
  if (NEEDS_AMOUNT.has(kind))
    body.amount =
      f.amountMinor !== undefined
        ? parseMinor(f.amountMinor)
        : f.currency
          ? toMinorOrFail(f.amount!, decimalsOf(f.currency))
          : 1
  if (needsCurrency) body.currency = {code: f.currency ?? 'USD'}
  checkWith(cardSimulationBody(kind), body)
  // The card's currency is needed for the body (authorization family) or to convert a real-unit amount.
  return {
    body,
    needsCurrency: !f.currency && (needsCurrency || (f.amount !== undefined && f.amountMinor === undefined)),
  }
}

function decimalsOf(code: string): number {
  return {JPY: 0, KRW: 0, BTC: 8, USDC: 6, USDT: 6}[code] ?? 2
}

/** Fills in the card's currency (and converts a real-unit amount to it) when --currency was not given. */
export async function withCardCurrency(
  ctx: Context,
  cardId: string,
  kind: CardSimulator,
  body: Record<string, unknown>,
  f: SimulationInput,
): Promise<Record<string, unknown>> {
  const card = await ctx.client.call(getCard(cardId))
  const code = card.currency ?? 'USD'
  const next: Record<string, unknown> = {...body, ...(body.currency ? {currency: {code}} : {})}
  if (f.amount !== undefined && f.amountMinor === undefined) next.amount = toMinorOrFail(f.amount, decimalsOf(code))
  return checkWith(cardSimulationBody(kind), next)
}

/** Ids of the CARD_TRANSACTION events the sandbox has emitted so far (taken before a simulation). */
export async function seenCardEvents(ctx: Context): Promise<Set<string>> {
  return new Set((await sandboxEvents(ctx.client, 'CARD_TRANSACTION')).map((e) => e.id))
}

/**
 * Waits for the webhook that carries a simulation's outcome: the first new CARD_TRANSACTION event
 * of the authorization it started (same issuer token) or of the transaction it acted on.
 */
export async function waitForCardEvent(
  ctx: Context,
  seen: Set<string>,
  match: {token: string; cardTransactionId?: string},
): Promise<SandboxEvent> {
  const resume = match.cardTransactionId
    ? `svc cards transactions get ${match.cardTransactionId}`
    : 'svc webhooks listen'
  return interrupts.during(
    {doing: `The simulation ${match.token} was accepted and its outcome will still arrive by webhook`, resume},
    () => pollEvents(ctx, seen, match),
  )
}

async function pollEvents(
  ctx: Context,
  seen: Set<string>,
  match: {token: string; cardTransactionId?: string},
): Promise<SandboxEvent> {
  let delay = 100
  for (;;) {
    const events = await sandboxEvents(ctx.client, 'CARD_TRANSACTION')
    const hit = events.find((e) => {
      if (seen.has(e.id)) return false
      const d = (e.data ?? {}) as {id?: string; issuerTransactionToken?: string}
      return match.cardTransactionId ? d.id === match.cardTransactionId : d.issuerTransactionToken === match.token
    })
    if (hit) return hit
    if (ctx.remainingMs() <= 0)
      throw stillPending(
        `No webhook carried the outcome of ${match.token} by --timeout`,
        'The simulation was accepted; look for it later with `svc webhooks listen` or GET /sandbox/events.',
      )
    await ctx.sleep(Math.min(delay, ctx.remainingMs()))
    delay = Math.min(delay * 2, 1000)
  }
}

export {simulateCard}
