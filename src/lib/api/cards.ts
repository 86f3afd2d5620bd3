import * as z from 'zod'
import {
  cardRevealSchema,
  cardSchema,
  type CardTransaction,
  cardSimulationResponse,
  cardTransactionSchema,
} from '../schemas/card-response.js'
import type {
  CardCreateRequest,
  CardListQuery,
  CardSimulator,
  CardTransactionFilter,
  CardUpdateRequest,
} from '../schemas/cards.js'
import type {ApiClient} from './client.js'
import {apiRequest} from './request.js'
import {listPaged, listRequest, type PageOptions} from './paging.js'

export function issueCard(body: CardCreateRequest) {
  return apiRequest({method: 'POST', path: ['cards'], body, idempotency: {}}, cardSchema, 'card')
}

export function listCards(query: Omit<CardListQuery, 'limit' | 'cursor'>) {
  return listRequest(['cards'], query, cardSchema, 'card list')
}

export function getCard(id: string) {
  return apiRequest({method: 'GET', path: ['cards', id]}, cardSchema, 'card')
}

export function updateCard(id: string, body: CardUpdateRequest) {
  return apiRequest({method: 'PATCH', path: ['cards', id], body}, cardSchema, 'card')
}

/** The reveal answer is a bearer secret: callers keep it out of output (see `cards reveal`). */
export function revealCard(id: string) {
  return apiRequest({method: 'POST', path: ['cards', id, 'reveal']}, cardRevealSchema, 'card reveal')
}

/**
 * Card transactions from GET /transactions (the published list, where they appear with type CARD):
 * the server narrows by cardholder and funding account; the card, the type and the card status are
 * picked here. A page may therefore hold fewer rows than --limit; --all reads everything.
 */
export async function listCardTransactions(client: ApiClient, filter: CardTransactionFilter, page: PageOptions) {
  let customerId = filter.customerId
  if (filter.cardId) {
    const card = await client.call(getCard(filter.cardId))
    if (customerId && customerId !== card.cardholderId) return {data: [], hasMore: false}
    customerId = card.cardholderId
  }
  const keep = (item: unknown): CardTransaction[] => {
    const t = item as {type?: string; cardId?: string; status?: string}
    if (
      t.type !== 'CARD' ||
      (filter.cardId && t.cardId !== filter.cardId) ||
      (filter.status && t.status !== filter.status)
    )
      return []
    return [client.parse(cardTransactionSchema, item, 'card transaction')]
  }
  const query = {customerId, accountIdentifier: filter.accountIdentifier, sortOrder: filter.sortOrder}
  const onPage = page.onPage
  const list = await listPaged(
    client,
    listRequest(['transactions'], query, z.looseObject({type: z.string()}), 'transaction list'),
    onPage ? {...page, onPage: (items) => onPage(items.flatMap(keep))} : page,
  )
  const {totalCount: _all, ...rest} = list
  return {...rest, data: list.data.flatMap(keep)}
}

export function getCardTransaction(id: string) {
  return apiRequest({method: 'GET', path: ['transactions', id]}, cardTransactionSchema, 'card transaction')
}

export function simulateCard(cardId: string, kind: CardSimulator, body: Record<string, unknown>) {
  return apiRequest(
    {method: 'POST', path: ['sandbox', 'cards', cardId, 'simulate', kind], body},
    cardSimulationResponse,
    'simulation answer',
  )
}

// The sandbox's event log is not a card call: it lives in sandbox-events.ts, so `webhooks events list`
// does not build the card schemas. Re-exported for the card workflows that wait on card events.
export {sandboxEventPage, sandboxEvents, type SandboxEvent} from './sandbox-events.js'
