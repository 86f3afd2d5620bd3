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
    router.post(`/${scope}/external-accounts`, (req, ctx) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      if (scope === 'platform' && body.customerId !== undefined)
        throw invalid([{field: 'customerId', message: 'is not allowed on platform accounts'}])
      const {data, errors} = externalAccountProblems(body)
      if (!data) throw invalid(errors)
      return {status: 201, body: publicExternalAccount(createExternalAccount(ctx, data))}
    })

    router.get(`/${scope}/external-accounts`, (req, ctx) => {
      const q = validate(externalAccountListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
      const paging = pagingOf(req.query)
      const {rows, totalCount} = pageExternalAccounts(
        ctx.db,
        {platform: scope === 'platform', customerId: q.customerId, currency: q.currency},
        paging,
      )
      return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicExternalAccount)}
    })

    router.get(`/${scope}/external-accounts/:id`, (req, ctx) => ({
      status: 200,
      body: publicExternalAccount(getExternalAccount(ctx, req.params.id)),
    }))

    router.delete(`/${scope}/external-accounts/:id`, (req, ctx) => {
      deleteExternalAccount(ctx, getExternalAccount(ctx, req.params.id))
      return {status: 204}
    })

    router.post(`/${scope}/external-accounts/:id/challenge`, (req, ctx) => {
      const a = getExternalAccount(ctx, req.params.id)
      const {method} = validate(ownershipChallengeRequest, req.body ?? {})
      return {status: 201, body: issueChallenge(ctx, a, method, ctx.url)}
    })

    router.post(`/${scope}/external-accounts/:id/verify`, (req, ctx) => {
      const a = getExternalAccount(ctx, req.params.id)
      const {signature} = validate(ownershipVerifyRequest, req.body ?? {})
      return {status: 200, body: verifySignature(ctx, a, signature)}
    })
  }

  // Trusted beneficiaries: an SCA step (start, then confirm with the code); 409 where SCA does not apply.
  for (const [verb, trusted] of [
    ['trust', true],
    ['untrust', false],
  ] as const) {
    router.post(`/customers/external-accounts/:id/${verb}`, (req, ctx) => ({
      status: 200,
      body: startTrustChange(ctx, req.params.id, trusted),
    }))
    router.post(`/customers/external-accounts/:id/${verb}/confirm`, (req, ctx) => ({
      status: 200,
      body: confirmTrustChange(ctx, req.params.id, trusted, validate(trustConfirmRequest, req.body ?? {})),
    }))
  }
}
