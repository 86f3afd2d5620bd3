import * as z from 'zod'

/**
 * A team sandbox's name: letters, digits, `-` and `_`, starting with a letter or digit, up to 63.
 * It is a directory under the server's data dir, a URL segment and a profile name, so `.`, `/`
 * and `..` can never occur in one.
 */
export const SANDBOX_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/
const NAME_RULE = 'must be letters, digits, - and _, starting with a letter or digit (up to 63)'

export const sandboxName = z.string().regex(SANDBOX_NAME, NAME_RULE)

/** POST /sandbox/sandboxes as JSON (a snapshot is uploaded as the raw body instead, with ?name=). */
export const sandboxCreateRequest = z.strictObject({
  name: sandboxName,
  from: z.strictObject({sandbox: sandboxName}).optional(),
})
export type SandboxCreateRequest = z.infer<typeof sandboxCreateRequest>

/** The content type of a snapshot upload (a SQLite database file, as `svc sandbox snapshot save` writes). */
export const SNAPSHOT_CONTENT_TYPE = 'application/vnd.sqlite3'

export const sandboxInfo = z.looseObject({
  name: z.string(),
  url: z.string(),
  tokenId: z.string(),
  sizeBytes: z.number(),
  createdAt: z.string().optional(),
  lastUsedAt: z.string().optional(),
  open: z.boolean(),
})
export type SandboxInfo = z.infer<typeof sandboxInfo>

/** A new sandbox's credentials: the secret is in this answer only (and the sandbox's data dir). */
export const sandboxCreated = z.looseObject({
  name: z.string(),
  url: z.string(),
  tokenId: z.string(),
  clientSecret: z.string(),
  webhookPublicKey: z.string(),
  // A branch (from a sandbox or a snapshot) says what it inherited and which credentials it left behind.
  inheritedSettings: z.record(z.string(), z.unknown()).optional(),
  droppedCredentials: z.record(z.string(), z.number()).optional(),
  agentsDisconnected: z.number().optional(),
})

export const sandboxList = z.looseObject({data: z.array(sandboxInfo)})
