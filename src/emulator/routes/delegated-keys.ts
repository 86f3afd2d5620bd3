import {delegatedKeyListQuery} from '../../lib/schemas/delegated-keys.js'
import {
  createDelegatedKey,
  getDelegatedKey,
  publicKeyView,
  revokeDelegatedKey,
  type StoredDelegatedKey,
} from '../domain/delegated-keys.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'
import {delegatedKeysWhere} from '../store/delegated-keys.js'

/** Delegated wallet keys (api-gaps 5.7): unpaged list, three-leg signed create, plain revoke. */
export function registerDelegatedKeys(router: Router): void {
  router.handle('createDelegatedKey', (req) => createDelegatedKey(req))
  router.handle('listDelegatedKeys', (req, ctx) => {
    const q = validate(delegatedKeyListQuery, Object.fromEntries(req.query))
    return {status: 200, body: {data: delegatedKeysWhere<StoredDelegatedKey>(ctx.db, q).map(publicKeyView)}}
  })
  router.handle('getDelegatedKeyById', (req, ctx) => ({
    status: 200,
    body: publicKeyView(getDelegatedKey(ctx, req.params.id)),
  }))
  router.handle('revokeDelegatedKey', (req, ctx) => {
    revokeDelegatedKey(ctx, req.params.id)
    return {status: 204}
  })
}
