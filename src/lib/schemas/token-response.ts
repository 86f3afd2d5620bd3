import * as z from 'zod'

/** An API token as answered (loose); `clientSecret` only in create's answer. */
export const apiToken = z.looseObject({
  id: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  clientId: z.string(),
  clientSecret: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type ApiToken = z.infer<typeof apiToken>
