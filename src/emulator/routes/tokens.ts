import {tokenListQuery} from '../../lib/schemas/tokens.js'
import {createToken, deleteToken, getToken, publicToken} from '../domain/tokens.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageTokens} from '../store/tokens.js'

/** API tokens (openapi /tokens): create shows the secret once; delete revokes at once. */
export function registerTokens(router: Router): void {
  // No idempotent replay: it would have to keep the secret to answer it again.
  router.post('/tokens', (req, emu) => ({status: 201, body: createToken(emu, req.body)}))
  router.get('/tokens', (req, emu) => {
    const q = validate(tokenListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageTokens(emu.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicToken)}
  })
  router.get('/tokens/:tokenId', (req, emu) => ({status: 200, body: publicToken(getToken(emu, req.params.tokenId))}))
  router.delete('/tokens/:tokenId', (req, emu) => {
    deleteToken(emu, req.params.tokenId)
    return {status: 204}
  })
}
