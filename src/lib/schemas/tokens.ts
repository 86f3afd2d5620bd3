import * as z from 'zod'
import {dateTime} from './common.js'

/** API tokens (openapi ApiToken*): the secret is returned once, by create, and never stored. */
export const TOKEN_PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const

export const tokenCreateRequest = z.strictObject({
  name: z.string().trim().min(1).max(255),
  permissions: z
    .array(z.enum(TOKEN_PERMISSIONS))
    .min(1)
    .max(3)
    .refine((p) => new Set(p).size === p.length, {message: 'must not repeat a permission'}),
})
export type TokenCreateRequest = z.infer<typeof tokenCreateRequest>

export const tokenListQuery = z.strictObject({
  name: z.string().min(1).max(255).optional(),
  createdAfter: dateTime.optional(),
  createdBefore: dateTime.optional(),
  updatedAfter: dateTime.optional(),
  updatedBefore: dateTime.optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
})

// The answer lives in token-response.ts, so `tokens list` does not build the request schemas above.
export {apiToken, type ApiToken} from './token-response.js'
