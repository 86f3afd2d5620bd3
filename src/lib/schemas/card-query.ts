import * as z from 'zod'
import {CARD_STATES} from './card-response.js'
import {idOf} from './ids.js'

/** GET /cards filters (cards.ts re-exports it; `cards list` needs none of the request schemas). */
export const cardListQuery = z.strictObject({
  cardholderId: idOf('Customer').optional(),
  accountId: idOf('InternalAccount').optional(),
  platformCardId: z.string().max(100).optional(),
  state: z.enum(CARD_STATES).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})
export type CardListQuery = z.infer<typeof cardListQuery>
