import {z} from './mini.js'

/** A page of a list answer; the item schema (classic or mini zod) is the resource's response schema. */
export function pagedList<T extends z.core.SomeType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    hasMore: z.boolean(),
    totalCount: z.optional(z.int()),
    nextCursor: z.optional(z.string()),
  })
}
