import {
  recordEventRequest,
  resetCompleteRequest,
  resetStartRequest,
  scaAuthorization,
  scaConfirmRequest,
  scaEnrolRequest,
  scaLoginCompleteRequest,
  scaLoginStartRequest,
} from '../../lib/schemas/sca.js'
import {idOf} from '../../lib/schemas/common.js'
import {publicQuote} from '../domain/quotes.js'
import {authorizeQuote, resendAuthorization} from '../domain/sca-quotes.js'
import {factorsOf, scaState} from '../domain/sca.js'
import {confirmEnrolment, deleteFactor, startEnrolment} from '../domain/sca-factors.js'
import {completeLogin, recordEvent, startLogin} from '../domain/sca-login.js'
import {completeReset, getReset, publicReset, startReset} from '../domain/sca-reset.js'
import type {SandboxContext} from '../context.js'
import {validate} from '../http-error.js'
import type {EmuRequest, Router} from '../router.js'

const customerIdQuery = idOf('Customer')

/** Every /sca route names its customer in the query (`?customerId=`). */
function stateOf(ctx: SandboxContext, req: EmuRequest) {
  const customerId = validate(customerIdQuery, req.query.get('customerId') ?? undefined, 'customerId')
  return scaState(ctx, customerId)
}

/** Strong customer authentication: factors, login sessions, security events, factor resets, quote authorization. */
export function registerSca(router: Router): void {
  router.handle('listScaFactors', (req, ctx) => ({status: 200, body: {factors: factorsOf(stateOf(ctx, req))}}))
  router.handle('startScaFactorEnrollment', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {status: 200, body: startEnrolment(ctx, st, validate(scaEnrolRequest, req.body ?? {}).type)}
  })
  router.handle('confirmScaFactorEnrollment', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {
      status: 200,
      body: confirmEnrolment(
        ctx,
        st,
        validate(scaConfirmRequest, req.body ?? {}) as Parameters<typeof confirmEnrolment>[2],
      ),
    }
  })
  router.handle('startTwoFactorReset', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {status: 201, body: startReset(ctx, st, validate(resetStartRequest, req.body ?? {}).factor)}
  })
  router.handle('getTwoFactorResetStatus', (req, ctx) => ({
    status: 200,
    body: publicReset(getReset(ctx, stateOf(ctx, req), req.params.resetId)),
  }))
  router.handle('completeTwoFactorReset', (req, ctx) => {
    const st = stateOf(ctx, req)
    completeReset(ctx, st, req.params.resetId, validate(resetCompleteRequest, req.body ?? {}).mobile)
    return {status: 204}
  })
  router.handle('deleteScaFactor', (req, ctx) => {
    deleteFactor(ctx, stateOf(ctx, req), req.params.credentialId)
    return {status: 204}
  })
  router.handle('startScaLogin', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {status: 200, body: startLogin(ctx, st, validate(scaLoginStartRequest, req.body ?? {}).factor)}
  })
  router.handle('completeScaLogin', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {status: 200, body: completeLogin(ctx, st, validate(scaLoginCompleteRequest, req.body ?? {}))}
  })
  router.handle('recordSecurityEvent', (req, ctx) => {
    const st = stateOf(ctx, req)
    return {status: 200, body: recordEvent(ctx, st, validate(recordEventRequest, req.body ?? {}).eventType)}
  })

  router.handle('authorizeQuote', (req, ctx) => {
    const proof = validate(scaAuthorization, req.body ?? {})
    return {status: 200, body: publicQuote(authorizeQuote(ctx, req.params.quoteId, proof))}
  })
  router.handle('resendQuoteScaCode', (req, ctx) => {
    resendAuthorization(ctx, req.params.quoteId)
    return {status: 204}
  })
}
