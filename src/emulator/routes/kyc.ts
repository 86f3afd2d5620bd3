import {randomBytes} from 'node:crypto'
import {confirmCodeRequest, kycLinkRequest, verificationListQuery, verificationRequest} from '../../lib/schemas/kyc.js'
import {getCustomer, publicCustomer} from '../domain/customers.js'
import {confirmContactCode, sendContactCode, type Channel} from '../domain/kyc-contact.js'
import {beginReview, isTerminalSuffix, suffixOf} from '../domain/kyc-decisions.js'
import {statusOf, type StoredVerification} from '../domain/kyc-records.js'
import {verificationErrors} from '../domain/kyc-rules.js'
import type {SandboxContext} from '../context.js'
import {HttpError, conflict, notFound, validate} from '../http-error.js'
import {newId} from '../ids.js'
import {pageFrom, pagingErrors, pagingOf} from '../paging.js'
import type {Router} from '../router.js'
import {pageVerifications} from '../store/kyc.js'

const LINK_TTL_MS = 60 * 60_000

interface KycLink {
  token: string
  customerId: string
  redirectUri?: string
  expiresAt: string
  usedAt?: string
}

/** Hosted links, contact verification and verification submissions (spec 3, 4.2). */
export function registerKyc(router: Router): void {
  router.handle('createCustomerKycLink', (req, ctx) => {
    const input = validate(kycLinkRequest, req.body ?? {})
    const c = getCustomer(ctx, req.params.customerId)
    const pending = Object.entries(c.contactVerification ?? {})
      .filter(([, s]) => s !== 'VERIFIED')
      .map(([ch]) => ch)
    if (pending.length) {
      throw conflict(
        'CONTACT_VERIFICATION_REQUIRED',
        `Every contact channel must be VERIFIED before a verification link is issued; pending: ${pending.join(', ')}`,
        {pending},
      )
    }
    const token = randomBytes(18).toString('base64url')
    const link: KycLink = {
      token,
      customerId: c.id,
      redirectUri: input.redirectUri,
      expiresAt: ctx.iso(ctx.now() + LINK_TTL_MS),
    }
    ctx.db.put('kycLinks', token, link)
    // The sandbox's own address, never the request's Host header.
    const kycUrl = `${ctx.url}/sandbox/hosted/kyc/${token}`
    return {status: 201, body: {kycUrl, expiresAt: link.expiresAt, provider: 'SUMSUB', token}}
  })

  for (const channel of ['email', 'phone'] as Channel[]) {
    router.handle(`POST /customers/{customerId}/verify-${channel}`, (req, ctx) => {
      sendContactCode(ctx, getCustomer(ctx, req.params.customerId), channel)
      return {status: 204}
    })
    router.handle(`POST /customers/{customerId}/verify-${channel}/confirm`, (req, ctx) => {
      const {code} = validate(confirmCodeRequest, req.body)
      const c = confirmContactCode(ctx, getCustomer(ctx, req.params.customerId), channel, code)
      return {status: 200, body: publicCustomer(c)}
    })
  }

  router.handle('createVerification', (req, ctx) => {
    const {customerId} = validate(verificationRequest, req.body)
    const c = getCustomer(ctx, customerId)
    const status = statusOf(c)
    // sandbox-behaviour 2-3: re-submitting a settled customer answers 400 (the contract lists no 409 here);
    // a submission under review is refused the same way.
    if (status === 'APPROVED' || status === 'REJECTED')
      throw notSubmittable(c.id, status, `is already ${status}; a settled decision is final`)
    if (status === 'PENDING')
      throw notSubmittable(c.id, status, 'is already under review (PENDING); wait for the decision')
    const skip =
      ctx.settings().skipVerificationPaperwork && c.customerType === 'BUSINESS' && isTerminalSuffix(suffixOf(c))
    const errors = verificationErrors(ctx, c, {paperwork: !skip})
    const now = ctx.iso()
    const v: StoredVerification = {
      id: newId('Verification'),
      customerId: c.id,
      verificationStatus: errors.length ? 'RESOLVE_ERRORS' : 'IN_PROGRESS',
      errors,
      createdAt: now,
      updatedAt: now,
    }
    ctx.db.put('verifications', v.id, v)
    if (!errors.length) beginReview(ctx, c, `verification ${v.id}`)
    return {status: 200, body: v}
  })

  // Newest first, so `limit=1` is the latest submission.
  router.handle('listVerifications', (req, ctx) => {
    const q = validate(verificationListQuery, Object.fromEntries(req.query), undefined, pagingErrors(req.query))
    const paging = pagingOf(req.query)
    const {rows, totalCount} = pageVerifications<StoredVerification>(ctx.db, q, paging)
    return {status: 200, body: pageFrom(rows, paging.limit, totalCount, (v) => v)}
  })

  router.handle('getVerification', (req, ctx) => {
    const v = ctx.db.get<StoredVerification>('verifications', req.params.verificationId)
    if (!v) throw notFound('VERIFICATION_NOT_FOUND', `Verification ${req.params.verificationId}`)
    return {status: 200, body: v}
  })

  // The hosted flow: a page the end user opens, and its completion (the provider collected everything).
  router.handle('GET /sandbox/hosted/kyc/{token}', (req, ctx) => {
    const link = usableLink(ctx, req.params.token)
    const html =
      `<!doctype html><title>Sandbox verification</title><h1>Sandbox verification for ${link.customerId}</h1>` +
      `<p>This stands in for the provider's hosted flow.</p><form method="post"><button>Complete verification</button></form>`
    return {status: 200, text: html, headers: {'content-type': 'text/html; charset=utf-8'}}
  })

  router.handle('POST /sandbox/hosted/kyc/{token}', (req, ctx) => {
    const link = usableLink(ctx, req.params.token)
    const c = getCustomer(ctx, link.customerId)
    ctx.db.put('kycLinks', link.token, {...link, usedAt: ctx.iso()})
    const status = statusOf(c)
    const saved = status === 'UNVERIFIED' || status === 'HOLD' ? beginReview(ctx, c, 'hosted flow completed') : c
    if (link.redirectUri) return {status: 303, headers: {location: link.redirectUri}, text: ''}
    return {status: 200, body: publicCustomer(saved)}
  })
}

/** Links are single use and expire; earlier links stay valid until used (spec 4.2 rule 1). */
function notSubmittable(customerId: string, status: string, why: string): HttpError {
  return new HttpError(400, 'INVALID_INPUT', `${customerId} ${why}`, {
    status,
    errors: [{field: 'customerId', message: `${customerId} ${why}`}],
  })
}

function usableLink(ctx: SandboxContext, token: string): KycLink {
  const link = ctx.db.get<KycLink>('kycLinks', token)
  if (!link) throw notFound('NOT_FOUND', 'Verification link')
  if (link.usedAt) throw new HttpError(410, 'LINK_USED', 'This verification link was used already; ask for a new one')
  if (Date.parse(link.expiresAt) < ctx.now())
    throw new HttpError(410, 'LINK_EXPIRED', 'This verification link expired; ask for a new one')
  return link
}
