import * as z from 'zod'

/** A page of a list answer; the item schema is the resource's response schema. */
export function pagedList<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    hasMore: z.boolean(),
    totalCount: z.number().int().optional(),
    nextCursor: z.string().optional(),
  })
}
