import {z} from 'zod'
import {
  cardRevealSchema,
  cardSchema,
  type CardTransaction,
  cardSimulationResponse,
  cardTransactionSchema,
  type CardCreateRequest,
  type CardListQuery,
  type CardSimulator,
  type CardTransactionFilter,
  type CardUpdateRequest,
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

const storedEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.unknown().optional(),
  delivery: z.unknown().optional(),
})
export type SandboxEvent = z.infer<typeof storedEvent>
const eventPage = z.looseObject({
  data: z.array(storedEvent),
  hasMore: z.boolean().optional(),
  nextCursor: z.string().optional(),
})

/**
 * The sandbox's event log (GET /sandbox/events): the webhooks it emitted, oldest first, with their
 * delivery; every page is followed. With `last`, only the newest `last` events (one page, read
 * newest first), so a long-lived sandbox's log is not walked to show its tail.
 */
export function sandboxEventPage(query: {type?: string; order?: 'desc'; limit: string; cursor?: string}) {
  return apiRequest({method: 'GET', path: ['sandbox', 'events'], query}, eventPage, 'event list')
}

export async function sandboxEvents(
  client: Pick<ApiClient, 'call'>,
  type?: string,
  opts: {last?: number} = {},
): Promise<SandboxEvent[]> {
  if (opts.last !== undefined) {
    const page = await client.call(sandboxEventPage({type, order: 'desc', limit: String(Math.min(opts.last, 1000))}))
    return page.data.reverse()
  }
  const all: SandboxEvent[] = []
  let cursor: string | undefined
  do {
    const page = await client.call(sandboxEventPage({type, limit: '1000', cursor}))
    all.push(...page.data)
    cursor = page.hasMore ? page.nextCursor : undefined
  } while (cursor)
  return all
}
