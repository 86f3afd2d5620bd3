import * as z from 'zod'
import {idOf} from './common.js'

/** Delegated wallet keys (api-gaps 5.7, openapi DelegatedKey*): Service-custodied, the private key never leaves it. */
export const delegatedKeyCreateRequest = z.strictObject({
  cardId: idOf('Card'),
  internalAccountId: idOf('InternalAccount'),
  nickname: z.string().min(1).max(256),
})
export type DelegatedKeyCreateRequest = z.infer<typeof delegatedKeyCreateRequest>

export const delegatedKeyListQuery = z
  .strictObject({accountId: idOf('InternalAccount').optional(), fundingSourceId: idOf('CardFundingSource').optional()})
  .refine((q) => q.accountId !== undefined || q.fundingSourceId !== undefined, {
    message: 'give accountId, fundingSourceId or both',
    path: ['accountId'],
  })

export const delegatedKey = z.looseObject({
  id: z.string(),
  cardId: z.string(),
  fundingSourceId: z.string(),
  accountId: z.string(),
  publicKey: z.string(),
  nickname: z.string(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type DelegatedKey = z.infer<typeof delegatedKey>
export const delegatedKeyList = z.looseObject({data: z.array(delegatedKey)})
