import * as z from 'zod'
import {fundRequest} from '../../lib/schemas/accounts.js'
import {sandboxSendRequest} from '../../lib/schemas/transfers.js'
import {sandboxUmaReceiveRequest} from '../../lib/schemas/uma.js'
import {receiveUmaPayment} from '../domain/incoming-uma.js'
import {getCustomer} from '../domain/customers.js'
import {findByLivenessToken, submitLiveness} from '../domain/ownership.js'
import {executeQuote, sandboxSend} from '../domain/quote-execute.js'
import {publicQuote} from '../domain/quotes.js'
import {credit, getInternalAccount} from '../domain/ledger.js'
import {publicTransaction, recordIncoming} from '../domain/transactions.js'
import {HttpError, validate} from '../http-error.js'
import type {Router} from '../router.js'

const livenessResult = z.strictObject({result: z.enum(['PASS', 'FAIL']).optional()})

/** The money simulators: fund, send (spec 4.5), an UMA payment in (sandbox-behaviour 11), the hosted liveness page, and agent-initiated execution. */
export function registerSandboxMoney(router: Router): void {
  router.handle('sandboxFundInternalAccount', (req, ctx) => {
    const account = getInternalAccount(ctx, req.params.accountId)
    const {amount} = validate(fundRequest, req.body ?? {})
    const customer = account.customerId ? getCustomer(ctx, account.customerId) : undefined
    const status = customer && (customer.customerType === 'BUSINESS' ? customer.kybStatus : customer.kycStatus)
    if (customer && status !== 'APPROVED')
      throw new HttpError(
        403,
        'USER_NOT_READY',
        `${customer.id} is ${status}; funding unlocks when the customer is APPROVED`,
        {customerId: customer.id, status},
      )
    // The platform's own account (e.g. the USD a mint spends): the contract's incoming-payment event
    // needs a customer, so the platform hears of it as a balance update, as of its mints and burns.
    if (!customer) {
      ctx.webhooks.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', credit(ctx, account.id, amount))
      return {status: 200, body: getInternalAccount(ctx, account.id)}
    }
    recordIncoming(ctx, account.id, amount, {
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      description: 'Sandbox funding',
      source: {sourceType: 'REALTIME_FUNDING', currency: account.balance.currency.code},
    })
    return {status: 200, body: getInternalAccount(ctx, account.id)}
  })

  router.handle('sandboxSend', (req, ctx) => {
    const input = validate(sandboxSendRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(sandboxSend(ctx, input))}
  })

  router.handle('sandboxReceive', (req, ctx) => {
    const input = validate(sandboxUmaReceiveRequest, req.body ?? {})
    return {status: 200, body: publicTransaction(receiveUmaPayment(ctx, input))}
  })

  // Executes a quote the way an agent would: the transaction waits for POST /transactions/{id}/approve.
  router.handle('POST /sandbox/quotes/{quoteId}/execute-as-agent', (req, ctx) => {
    const {agentId} = validate(
      z.strictObject({
        agentId: z
          .string()
          .regex(/^Agent:[A-Za-z0-9_-]{1,128}$/)
          .optional(),
      }),
      req.body ?? {},
    )
    return {
      status: 200,
      body: publicQuote(
        executeQuote(ctx, req.params.quoteId, {
          req,
          agentId: agentId ?? 'Agent:sandbox',
          site: 'sandbox.execute-as-agent',
        }),
      ),
    }
  })

  router.handle('GET /sandbox/hosted/liveness/{token}', (req, ctx) => {
    const a = findByLivenessToken(ctx, req.params.token)
    const state = a ? `for ${a.id} (${String(a.accountInfo.address)})` : 'that is no longer outstanding'
    const form = (r: string) =>
      `<form method="post" action="${req.params.token}/complete?result=${r}"><button>${r === 'PASS' ? 'Complete the check' : 'Fail the check'}</button></form>`
    return {
      status: 200,
      headers: {'content-type': 'text/html; charset=utf-8'},
      text: `<!doctype html><title>Liveness check</title><h1>Sandbox liveness check</h1><p>A check ${state}.</p>${a ? form('PASS') + form('FAIL') : ''}`,
    }
  })

  router.handle('POST /sandbox/hosted/liveness/{token}/complete', (req, ctx) => {
    const body = req.body ?? (req.query.get('result') ? {result: req.query.get('result')} : {})
    const {result} = validate(livenessResult, body)
    const a = submitLiveness(ctx, req.params.token, result !== 'FAIL')
    return {status: 202, body: {accountId: a.id, submitted: true, result: result ?? 'PASS'}}
  })
}
