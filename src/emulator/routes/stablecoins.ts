import {operationListQuery, providerAccountListQuery, stablecoinListQuery} from '../../lib/schemas/stablecoins.js'
import {
  burn,
  getOperation,
  mint,
  publicOperation,
  requireIdempotencyKey,
  type StoredOperation,
} from '../domain/stablecoin-operations.js'
import {
  type StoredProviderAccount,
  type StoredStablecoin,
  getProviderAccount,
  getStablecoin,
  linkProviderAccount,
  operatorSetEnablement,
  publicProviderAccount,
  registerStablecoin,
  requestEnablement,
  sandboxSetProviderAccountStatus,
} from '../domain/stablecoins.js'
import {validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {EmuRequest, Router} from '../router.js'
import {pageOperations, pageProviderAccounts, pageStablecoins} from '../store/stablecoins.js'

/** Stablecoin issuance (openapi tag Stablecoins) plus the enablement request and its sandbox control. */
export function registerStablecoins(router: Router): void {
  const keyed = (req: EmuRequest, scope: string, run: () => unknown) => {
    requireIdempotencyKey(req)
    return req.ctx.idempotent(req, scope, () => ({status: 201, body: run()}))
  }
  const listed = <T extends {id: string; createdAt: string}, Q>(
    req: EmuRequest,
    schema: import('zod').ZodType<Q>,
    page: (q: Q, paging: ReturnType<typeof pagingOf>) => {rows: T[]; totalCount: number},
    view: (t: T) => unknown,
  ) => {
    const q = validate(schema, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = page(q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, view)}
  }

  router.post('/stablecoin-provider-accounts', (req, ctx) =>
    keyed(req, 'stablecoin-provider-accounts', () => publicProviderAccount(linkProviderAccount(ctx, req.body))),
  )
  router.get('/stablecoin-provider-accounts', (req, ctx) =>
    listed(
      req,
      providerAccountListQuery,
      (q, p) => pageProviderAccounts<StoredProviderAccount>(ctx.db, q, p),
      publicProviderAccount,
    ),
  )
  router.get('/stablecoin-provider-accounts/:id', (req, ctx) => ({
    status: 200,
    body: publicProviderAccount(getProviderAccount(ctx, req.params.id)),
  }))
  router.post('/sandbox/stablecoin-provider-accounts/:id/status', (req, ctx) => ({
    status: 200,
    body: publicProviderAccount(sandboxSetProviderAccountStatus(ctx, req.params.id, req.body)),
  }))

  router.post('/stablecoins', (req, ctx) => keyed(req, 'stablecoins', () => registerStablecoin(ctx, req.body)))
  router.get('/stablecoins', (req, ctx) =>
    listed(
      req,
      stablecoinListQuery,
      (q, p) => pageStablecoins<StoredStablecoin>(ctx.db, q, p),
      (c) => c,
    ),
  )
  router.get('/stablecoins/:id', (req, ctx) => ({status: 200, body: getStablecoin(ctx, req.params.id)}))
  // Not in the published contract (spec 3 names the request, not its path): see README.
  router.post('/stablecoins/:id/enablement', (req, ctx) => ({status: 200, body: requestEnablement(ctx, req.params.id)}))
  router.post('/sandbox/stablecoins/:id/enablement', (req, ctx) => ({
    status: 200,
    body: operatorSetEnablement(ctx, req.params.id, req.body),
  }))

  router.post('/stablecoins/:id/mints', (req) => mint(req, req.params.id))
  router.post('/stablecoins/:id/burns', (req) => burn(req, req.params.id))
  router.get('/stablecoins/:id/operations', (req, ctx) => {
    getStablecoin(ctx, req.params.id)
    return listed(
      req,
      operationListQuery,
      (q, p) => pageOperations<StoredOperation>(ctx.db, req.params.id, q.operationType, p),
      publicOperation,
    )
  })
  router.get('/stablecoin-operations/:id', (req, ctx) => ({
    status: 200,
    body: publicOperation(getOperation(ctx, req.params.id)),
  }))
}
