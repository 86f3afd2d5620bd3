import {tokenListQuery} from '../../lib/schemas/tokens.js'
import {createToken, deleteToken, getToken, publicToken} from '../domain/tokens.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageTokens} from '../store/tokens.js'

/** API tokens (openapi /tokens): create shows the secret once; delete revokes at once. */
export function registerTokens(router: Router): void {
  // No idempotent replay: it would have to keep the secret to answer it again.
  router.handle('createToken', (req, ctx) => ({status: 201, body: createToken(ctx, req.body)}))
  router.handle('listTokens', (req, ctx) => {
    const q = validate(tokenListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageTokens(ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicToken)}
  })
  router.handle('getTokenById', (req, ctx) => ({status: 200, body: publicToken(getToken(ctx, req.params.tokenId))}))
  router.handle('deleteTokenById', (req, ctx) => {
    deleteToken(ctx, req.params.tokenId)
    return {status: 204}
  })
}
