import {createHash, randomBytes} from 'node:crypto'
import type {CardCreateRequest, CardState, CardUpdateRequest} from '../../lib/schemas/cards.js'
import type {SandboxContext} from '../context.js'
import {badRequest, conflict, notFound} from '../http-error.js'
import {newId} from '../ids.js'
import {bindFundingSources, liveCardCount} from '../store/cards.js'
import {getCustomer} from './customers.js'
import type {InternalAccount} from './internal-accounts.js'
import {closeOpenTransactions} from './card-transactions.js'
import {requireScaSession} from './sca.js'
import type {StoredCard} from '../store/cards.js'
export type {StoredCard}

export function publicCard(c: StoredCard): Omit<StoredCard, '_'> {
  const {_: _secret, ...rest} = c
  return rest
}

export function getCard(ctx: SandboxContext, id: string): StoredCard {
  const c = ctx.db.get<StoredCard>('cards', id)
  if (!c) throw notFound('NOT_FOUND', `Card ${id}`)
  return c
}

function saveCard(ctx: SandboxContext, c: StoredCard, patch: Partial<StoredCard>): StoredCard {
  return ctx.db.put('cards', c.id, {...c, ...patch, updatedAt: ctx.iso()})
}

/** A Luhn-valid 16-digit VISA number derived from the card id (stable across restarts). */
function sandboxPan(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex')
  const body =
    '400000' +
    BigInt('0x' + hex)
      .toString()
      .slice(0, 9)
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return body + String((10 - (sum % 10)) % 10)
}

/** Three digits from the card id, independent of the number. */
function sandboxCvv(seed: string): string {
  return String(createHash('sha256').update(`cvv:${seed}`).digest().readUInt16BE(0) % 1000).padStart(3, '0')
}

/** Sandbox issuance suffix (sandbox-behaviour 16a): from platformCardId, else the cardholder id. */
function issuanceSuffix(input: CardCreateRequest): string {
  return (input.platformCardId ?? input.cardholderId).slice(-3)
}

/** Every funding source must be an internal account of the cardholder, all in one currency (FUNDING_SOURCE_INELIGIBLE). */
function checkFundingSources(ctx: SandboxContext, cardholderId: string, ids: string[], currency?: string): string {
  const problems: Array<{accountId: string; reason: string}> = []
  let code = currency
  if (new Set(ids).size !== ids.length)
    throw badRequest('INVALID_INPUT', 'Invalid input: fundingSources', {
      errors: [{field: 'fundingSources', message: 'lists an account twice'}],
    })
  for (const id of ids) {
    const a = ctx.db.get<InternalAccount>('internalAccounts', id)
    if (!a || a.customerId !== cardholderId)
      problems.push({accountId: id, reason: 'is not an internal account of the cardholder'})
    else if (a.status !== 'ACTIVE') problems.push({accountId: id, reason: `is ${a.status}`})
    else if (code && a.balance.currency.code !== code)
      problems.push({accountId: id, reason: `is in ${a.balance.currency.code}, not ${code}`})
    else code = a.balance.currency.code
  }
  if (problems.length)
    throw badRequest(
      'FUNDING_SOURCE_INELIGIBLE',
      `Ineligible funding source: ${problems.map((p) => `${p.accountId} ${p.reason}`).join('; ')}`,
      {problems},
    )
  return code!
}

/** POST /cards: cardholder KYC APPROVED, live-card limit, funding sources; the card starts PROCESSING. */
export function issueCard(ctx: SandboxContext, input: CardCreateRequest): StoredCard {
  const holder = getCustomer(ctx, input.cardholderId)
  const status = holder.customerType === 'BUSINESS' ? holder.kybStatus : holder.kycStatus
  if (status !== 'APPROVED')
    throw badRequest(
      'CARDHOLDER_KYC_NOT_APPROVED',
      `${holder.id} is ${status ?? 'not verified'}; a card is issued only to an APPROVED cardholder`,
      {cardholderId: holder.id, status},
    )
  const currency = checkFundingSources(ctx, holder.id, input.fundingSources)
  const limit = ctx.settings().liveCardsPerCardholder
  const live = liveCardCount(ctx.db, holder.id)
  if (live >= limit)
    throw conflict(
      'CARD_LIMIT_REACHED',
      `${holder.id} already holds ${live} live card(s), the limit; close one to free a slot`,
      {cardholderId: holder.id, liveCards: live, limit},
    )
  const id = newId('Card')
  const pan = sandboxPan(id)
  const now = new Date(ctx.now())
  const card: StoredCard = {
    id,
    cardholderId: holder.id,
    platformCardId: input.platformCardId ?? `card-${randomBytes(6).toString('hex')}`,
    state: 'PROCESSING',
    stateReason: null,
    brand: 'VISA',
    form: 'VIRTUAL',
    last4: pan.slice(-4),
    expMonth: now.getUTCMonth() + 1,
    expYear: now.getUTCFullYear() + 4,
    fundingSources: input.fundingSources,
    maxSpendPerTransaction: input.maxSpendPerTransaction ?? null,
    currency,
    createdAt: ctx.iso(),
    updatedAt: ctx.iso(),
    _: {pan, cvv: sandboxCvv(id)},
  }
  ctx.db.put('cards', id, card)
  bindFundingSources(ctx.db, id, card.fundingSources)
  const suffix = issuanceSuffix(input)
  const s = ctx.settings()
  if (suffix !== '001')
    ctx.scheduler.after(suffix === '005' ? s.cardSlowDelayMs : s.cardProcessingDelayMs, 'card.provisioned', {
      cardId: id,
      rejected: suffix === '002',
    })
  return card
}

const MOVES: Partial<Record<CardState, CardState[]>> = {ACTIVE: ['FROZEN', 'CLOSED'], FROZEN: ['ACTIVE', 'CLOSED']}

/** PATCH /cards/{id}: the state machine (spec 3 "Card"), funding sources, spending limit. */
export function updateCard(ctx: SandboxContext, card: StoredCard, patch: CardUpdateRequest): StoredCard {
  if (card.state === 'CLOSED') {
    if (patch.state === 'CLOSED')
      throw conflict('CARD_ALREADY_CLOSED', `${card.id} is already CLOSED`, {cardId: card.id, state: card.state})
    throw conflict('CARD_NOT_MUTABLE', `${card.id} is CLOSED; a closed card cannot be changed`, {
      cardId: card.id,
      state: card.state,
    })
  }
  if (patch.state && !(MOVES[card.state] ?? []).includes(patch.state)) {
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${card.id} cannot move from ${card.state} to ${patch.state}; allowed: ACTIVE <-> FROZEN, ACTIVE or FROZEN -> CLOSED`,
      {cardId: card.id, from: card.state, to: patch.state},
    )
  }
  const next: Partial<StoredCard> = {}
  if (patch.fundingSources) {
    checkFundingSources(ctx, card.cardholderId, patch.fundingSources, card.currency)
    next.fundingSources = patch.fundingSources
    bindFundingSources(ctx.db, card.id, patch.fundingSources)
  }
  if (patch.maxSpendPerTransaction !== undefined) next.maxSpendPerTransaction = patch.maxSpendPerTransaction
  if (patch.state) {
    next.state = patch.state
    next.stateReason = patch.state === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null
  }
  const saved = saveCard(ctx, card, next)
  if (patch.state === 'CLOSED') closeOpenTransactions(ctx, saved)
  if (patch.fundingSources) ctx.webhooks.emit('CARD.FUNDING_SOURCE_CHANGE', publicCard(saved))
  if (patch.state) ctx.webhooks.emit('CARD.STATE_CHANGE', publicCard(saved))
  return saved
}

/**
 * POST /cards/{id}/reveal: a short-lived bearer URL of a sandbox page showing PAN, CVV and expiry
 * (the published shape: the card data itself never travels in an API answer). Where SCA is required
 * the cardholder needs a session: 423 when locked, 409 SCA_SESSION_REQUIRED without one.
 */
export function revealCard(ctx: SandboxContext, card: StoredCard): {panEmbedUrl: string; expiresAt: string} {
  if (card.state === 'CLOSED' || card.state === 'PROCESSING')
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `${card.id} is ${card.state}; only ACTIVE or FROZEN cards can be revealed`,
      {cardId: card.id, state: card.state},
    )
  // SCA-railed (the contract's updateCardById): the cardholder is served, so it needs their session, as a quote does.
  requireScaSession(ctx, card.cardholderId)
  const token = randomBytes(24).toString('base64url')
  const expiresAt = ctx.iso(ctx.now() + 5 * 60_000)
  ctx.db.put('cardReveals', token, {cardId: card.id, expiresAt})
  return {panEmbedUrl: `${ctx.url}/sandbox/hosted/cards/reveal/${token}`, expiresAt}
}

/** The hosted reveal page: PAN, CVV and expiry for a live token (once), else nothing. */
export function revealPage(
  ctx: SandboxContext,
  token: string,
): {pan: string; cvv: string; expMonth: number; expYear: number} | undefined {
  const r = ctx.db.get<{cardId: string; expiresAt: string}>('cardReveals', token)
  if (!r) return undefined
  ctx.db.del('cardReveals', token)
  if (Date.parse(r.expiresAt) < ctx.now()) return undefined
  const c = ctx.db.get<StoredCard>('cards', r.cardId)
  return c ? {pan: c._.pan, cvv: c._.cvv, expMonth: c.expMonth, expYear: c.expYear} : undefined
}

/** Provisioning finished (ACTIVE, or CLOSED/ISSUER_REJECTED for suffix 002): CARD.STATE_CHANGE. */
export function registerCardJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('card.provisioned', (p) => {
    const card = ctx.db.get<StoredCard>('cards', String(p.cardId))
    if (card?.state === 'PROCESSING') finishProvisioning(ctx, card, Boolean(p.rejected))
  })
}

/** A PROCESSING card's provisioning ends: ACTIVE, or CLOSED when the issuer rejected it. */
export function finishProvisioning(ctx: SandboxContext, card: StoredCard, rejected: boolean): StoredCard {
  const saved = saveCard(ctx, card, rejected ? {state: 'CLOSED', stateReason: 'ISSUER_REJECTED'} : {state: 'ACTIVE'})
  ctx.webhooks.emit('CARD.STATE_CHANGE', publicCard(saved))
  return saved
}
