import {createHash, randomBytes} from 'node:crypto'
import {tokenCreateRequest} from '../../lib/schemas/tokens.js'
import type {SandboxContext} from '../context.js'
import {notFound, validate} from '../http-error.js'
import {newId} from '../ids.js'
import type {StoredToken} from '../store/tokens.js'

const sha256 = (s: string) => createHash('sha256').update(s).digest()

/** What the API shows of a token: never the secret (nor its hash). */
export function publicToken(t: StoredToken) {
  const {secretSha256: _hash, ...rest} = t
  return rest
}

/** POST /tokens: the one answer that carries `clientSecret`. */
export function createToken(ctx: SandboxContext, body: unknown) {
  const input = validate(tokenCreateRequest, body)
  const now = ctx.iso()
  const clientSecret = `sk_tok_${randomBytes(24).toString('hex')}`
  const token: StoredToken = {
    id: newId('Token'),
    name: input.name,
    permissions: input.permissions,
    clientId: randomBytes(16).toString('hex'),
    secretSha256: sha256(clientSecret).toString('hex'),
    createdAt: now,
    updatedAt: now,
  }
  ctx.db.put('apiTokens', token.id, token)
  return {...publicToken(token), clientSecret}
}

export function getToken(ctx: SandboxContext, id: string): StoredToken {
  const t = ctx.db.get<StoredToken>('apiTokens', id)
  if (!t) throw notFound('TOKEN_NOT_FOUND', `API token ${id}`)
  return t
}

/** DELETE /tokens/{id}: the token is gone, so its credentials stop working at once. */
export function deleteToken(ctx: SandboxContext, id: string): void {
  getToken(ctx, id)
  ctx.db.del('apiTokens', id)
}
