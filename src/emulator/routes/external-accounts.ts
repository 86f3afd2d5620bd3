import {
  externalAccountListQuery,
  externalAccountProblems,
  ownershipChallengeRequest,
  ownershipVerifyRequest,
} from '../../lib/schemas/accounts.js'
import {trustConfirmRequest} from '../../lib/schemas/sca.js'
import {
  createExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  publicExternalAccount,
} from '../domain/external-accounts.js'
import {confirmTrustChange, startTrustChange} from '../domain/beneficiary-trust.js'
import {issueChallenge, verifySignature} from '../domain/ownership.js'
import {invalid, validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageExternalAccounts} from '../store/accounts.js'

/** External accounts (beneficiaries, wallets), trust, and ownership verification (spec 3, 4.1, 4.3). */
export function registerExternalAccounts(router: Router): void {
  for (const scope of ['customers', 'platform'] as const) {
    router.handle(`POST /${scope}/external-accounts`, (req, ctx) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      if (scope === 'platform' && body.customerId !== undefined)
        throw invalid([{field: 'customerId', message: 'is not allowed on platform accounts'}])
      const {data, errors} = externalAccountProblems(body)
      if (!data) throw invalid(errors)
      return {status: 201, body: publicExternalAccount(createExternalAccount(ctx, data))}
    })

    router.handle(`GET /${scope}/external-accounts`, (req, ctx) => {
      const q = validate(externalAccountListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
      const paging = pagingOf(req.query)
      const {rows, totalCount} = pageExternalAccounts(
        ctx.db,
        {platform: scope === 'platform', customerId: q.customerId, currency: q.currency},
        paging,
      )
      return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicExternalAccount)}
    })

    router.handle(`GET /${scope}/external-accounts/{externalAccountId}`, (req, ctx) => ({
      status: 200,
      body: publicExternalAccount(getExternalAccount(ctx, req.params.externalAccountId)),
    }))

    router.handle(`DELETE /${scope}/external-accounts/{externalAccountId}`, (req, ctx) => {
      deleteExternalAccount(ctx, getExternalAccount(ctx, req.params.externalAccountId))
      return {status: 204}
    })

    router.handle(`POST /${scope}/external-accounts/{externalAccountId}/challenge`, (req, ctx) => {
      const a = getExternalAccount(ctx, req.params.externalAccountId)
      const {method} = validate(ownershipChallengeRequest, req.body ?? {})
      return {status: 201, body: issueChallenge(ctx, a, method, ctx.url)}
    })

    router.handle(`POST /${scope}/external-accounts/{externalAccountId}/verify`, (req, ctx) => {
      const a = getExternalAccount(ctx, req.params.externalAccountId)
      const {signature} = validate(ownershipVerifyRequest, req.body ?? {})
      return {status: 200, body: verifySignature(ctx, a, signature)}
    })
  }

  // Trusted beneficiaries: an SCA step (start, then confirm with the code); 409 where SCA does not apply.
  for (const [verb, trusted] of [
    ['trust', true],
    ['untrust', false],
  ] as const) {
    router.handle(`POST /customers/external-accounts/{externalAccountId}/${verb}`, (req, ctx) => ({
      status: 200,
      body: startTrustChange(ctx, req.params.externalAccountId, trusted),
    }))
    router.handle(`POST /customers/external-accounts/{externalAccountId}/${verb}/confirm`, (req, ctx) => ({
      status: 200,
      body: confirmTrustChange(
        ctx,
        req.params.externalAccountId,
        trusted,
        validate(trustConfirmRequest, req.body ?? {}),
      ),
    }))
  }
}
