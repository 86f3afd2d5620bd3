import {operationListQuery, providerAccountListQuery, stablecoinListQuery} from '../../lib/schemas/stablecoins.js'
import {burn, getOperation, mint, publicOperation, type StoredOperation} from '../domain/stablecoin-operations.js'
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

  router.handle('linkStablecoinProviderAccount', (req, ctx) => ({
    status: 201,
    body: publicProviderAccount(linkProviderAccount(ctx, req.body)),
  }))
  router.handle('listStablecoinProviderAccounts', (req, ctx) =>
    listed(
      req,
      providerAccountListQuery,
      (q, p) => pageProviderAccounts<StoredProviderAccount>(ctx.db, q, p),
      publicProviderAccount,
    ),
  )
  router.handle('getStablecoinProviderAccount', (req, ctx) => ({
    status: 200,
    body: publicProviderAccount(getProviderAccount(ctx, req.params.stablecoinProviderAccountId)),
  }))
  router.handle('POST /sandbox/stablecoin-provider-accounts/{id}/status', (req, ctx) => ({
    status: 200,
    body: publicProviderAccount(sandboxSetProviderAccountStatus(ctx, req.params.id, req.body)),
  }))

  router.handle('registerStablecoin', (req, ctx) => ({status: 201, body: registerStablecoin(ctx, req.body)}))
  router.handle('listStablecoins', (req, ctx) =>
    listed(
      req,
      stablecoinListQuery,
      (q, p) => pageStablecoins<StoredStablecoin>(ctx.db, q, p),
      (c) => c,
    ),
  )
  router.handle('getStablecoin', (req, ctx) => ({status: 200, body: getStablecoin(ctx, req.params.stablecoinId)}))
  // Not in the published contract (spec 3 names the request, not its path): see README.
  router.handle('POST /stablecoins/{stablecoinId}/enablement', (req, ctx) => ({
    status: 200,
    body: requestEnablement(ctx, req.params.stablecoinId),
  }))
  router.handle('POST /sandbox/stablecoins/{stablecoinId}/enablement', (req, ctx) => ({
    status: 200,
    body: operatorSetEnablement(ctx, req.params.stablecoinId, req.body),
  }))

  router.handle('createStablecoinMint', (req) => mint(req, req.params.stablecoinId))
  router.handle('createStablecoinBurn', (req) => burn(req, req.params.stablecoinId))
  router.handle('listStablecoinOperations', (req, ctx) => {
    getStablecoin(ctx, req.params.stablecoinId)
    return listed(
      req,
      operationListQuery,
      (q, p) => pageOperations<StoredOperation>(ctx.db, req.params.stablecoinId, q.operationType, p),
      publicOperation,
    )
  })
  router.handle('getStablecoinOperation', (req, ctx) => ({
    status: 200,
    body: publicOperation(getOperation(ctx, req.params.stablecoinOperationId)),
  }))
}
