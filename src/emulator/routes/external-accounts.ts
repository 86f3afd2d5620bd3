import {
  externalAccountListQuery,
  externalAccountProblems,
  ownershipChallengeRequest,
  ownershipVerifyRequest,
} from '../../lib/schemas/accounts.js'
import {
  createExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  publicExternalAccount,
} from '../domain/external-accounts.js'
import {issueChallenge, verifySignature} from '../domain/ownership.js'
import {invalid, validate} from '../http-error.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageExternalAccounts} from '../store/accounts.js'

/** External accounts (beneficiaries, wallets), trust, and ownership verification (spec 3, 4.1, 4.3). */
export function registerExternalAccounts(router: Router): void {
  for (const scope of ['customers', 'platform'] as const) {
    router.post(`/${scope}/external-accounts`, (req, emu) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      if (scope === 'platform' && body.customerId !== undefined)
        throw invalid([{field: 'customerId', message: 'is not allowed on platform accounts'}])
      const {data, errors} = externalAccountProblems(body)
      if (!data) throw invalid(errors)
      return {status: 201, body: publicExternalAccount(createExternalAccount(emu, data))}
    })

    router.get(`/${scope}/external-accounts`, (req, emu) => {
      const q = validate(externalAccountListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
      const paging = pagingOf(req.query)
      const {rows, totalCount} = pageExternalAccounts(
        emu.db,
        {platform: scope === 'platform', customerId: q.customerId, currency: q.currency},
        paging,
      )
      return {status: 200, body: pageFrom(rows, paging.limit, totalCount, publicExternalAccount)}
    })

    router.get(`/${scope}/external-accounts/:id`, (req, emu) => ({
      status: 200,
      body: publicExternalAccount(getExternalAccount(emu, req.params.id)),
    }))

    router.delete(`/${scope}/external-accounts/:id`, (req, emu) => {
      deleteExternalAccount(emu, getExternalAccount(emu, req.params.id))
      return {status: 204}
    })

    router.post(`/${scope}/external-accounts/:id/challenge`, (req, emu) => {
      const a = getExternalAccount(emu, req.params.id)
      const {method} = validate(ownershipChallengeRequest, req.body ?? {})
      return {status: 201, body: issueChallenge(emu, a, method, emu.url)}
    })

    router.post(`/${scope}/external-accounts/:id/verify`, (req, emu) => {
      const a = getExternalAccount(emu, req.params.id)
      const {signature} = validate(ownershipVerifyRequest, req.body ?? {})
      return {status: 200, body: verifySignature(emu, a, signature)}
    })
  }

  // Trusted beneficiaries: the sandbox needs no SCA step, so trust and untrust apply at once and
  // answer without `scaChallenge`; the /confirm endpoints report the resulting state.
  for (const [verb, trusted] of [
    ['trust', true],
    ['untrust', false],
  ] as const) {
    router.post(`/customers/external-accounts/:id/${verb}`, (req, emu) => {
      const a = getExternalAccount(emu, req.params.id)
      emu.db.put('externalAccounts', a.id, {...a, trusted, updatedAt: emu.iso()})
      return {status: 200, body: {}}
    })
    router.post(`/customers/external-accounts/:id/${verb}/confirm`, (req, emu) => ({
      status: 200,
      body: {trusted: getExternalAccount(emu, req.params.id).trusted},
    }))
  }
}
