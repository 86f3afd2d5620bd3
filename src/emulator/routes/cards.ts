import {
  CARD_SIMULATORS,
  cardCreateRequest,
  cardListQuery,
  cardUpdateRequest,
  type CardSimulator,
} from '../../lib/schemas/cards.js'
import {getCard, issueCard, publicCard, revealCard, revealPage, updateCard} from '../domain/cards.js'
import {getCardTransaction, publicCardTransaction} from '../domain/card-transactions.js'
import {simulate} from '../domain/card-simulators.js'
import type {SandboxContext} from '../context.js'
import {notFound, validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Handler, Router} from '../router.js'
import {CONTRACT_CARD_SIMULATORS} from '../authz/table/cards.js'
import {listCards} from '../store/cards.js'

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Cards (issue, list, get, PATCH state, reveal), card transactions and the card simulators. */
export function registerCards(router: Router): void {
  router.handle('createCard', (req, ctx) => ({
    status: 201,
    body: publicCard(issueCard(ctx, validate(cardCreateRequest, req.body ?? {}))),
  }))

  router.handle('listCards', (req, ctx) => {
    const q = validate(cardListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = listCards(ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicCard)}
  })

  router.handle('getCardById', (req, ctx) => ({status: 200, body: publicCard(getCard(ctx, req.params.id))}))

  router.handle('updateCardById', (req, ctx) => {
    const card = getCard(ctx, req.params.id)
    return {status: 200, body: publicCard(updateCard(ctx, card, validate(cardUpdateRequest, req.body ?? {})))}
  })

  router.handle('revealCard', (req, ctx) => ({status: 200, body: revealCard(ctx, getCard(ctx, req.params.id))}))

  // The page behind panEmbedUrl (the processor's iframe in the Service): one view per reveal.
  router.handle('GET /sandbox/hosted/cards/reveal/{token}', (req, ctx) => {
    const d = revealPage(ctx, req.params.token)
    const html = d
      ? `<dl><dt>Card number</dt><dd id="pan">${escape(d.pan)}</dd><dt>CVV</dt><dd id="cvv">${escape(d.cvv)}</dd><dt>Expires</dt><dd id="exp">${String(d.expMonth).padStart(2, '0')}/${d.expYear}</dd></dl>`
      : '<p>This reveal link has expired or was already used. Request a new reveal.</p>'
    return {
      status: d ? 200 : 404,
      headers: {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store'},
      text: `<!doctype html><title>Card details</title>${html}`,
    }
  })

  const simulator =
    (kind: string): Handler =>
    (req, ctx) => {
      if (!CARD_SIMULATORS.includes(kind as CardSimulator)) throw notFound('NOT_FOUND', `Card simulator ${kind}`)
      return {status: 202, body: simulate(ctx, req.params.id, kind as CardSimulator, req.body)}
    }
  // One handler for every simulator: the contract's operation of each kind, and the sandbox's own for the rest.
  for (const kind of CONTRACT_CARD_SIMULATORS)
    router.handle(`POST /sandbox/cards/{id}/simulate/${kind}`, simulator(kind))
  router.handle('POST /sandbox/cards/{id}/simulate/{kind}', (req, ctx) => simulator(req.params.kind)(req, ctx))
}

/** GET /transactions/{id} for a `CardTransaction:` id. */
export function getCardTransactionRoute(ctx: SandboxContext, id: string) {
  return {status: 200, body: publicCardTransaction(getCardTransaction(ctx, id))}
}
