import {receiverLookupQuery} from '../../lib/schemas/uma.js'
import {estimateWithdrawalFeeRequest} from '../../lib/schemas/withdrawal.js'
import {lookupExternalReceiver, lookupUmaReceiver} from '../domain/receiver-lookup.js'
import {estimateWithdrawalFee} from '../domain/withdrawal-fee.js'
import {validate} from '../http-error.js'
import type {Router} from '../router.js'

/** Before paying: what a receiver accepts (UMA address or external account), and what a crypto withdrawal costs. */
export function registerReceiver(router: Router): void {
  router.handle('lookupUma', (req, ctx) => {
    const sender = validate(receiverLookupQuery, Object.fromEntries(req.query))
    return {status: 200, body: lookupUmaReceiver(ctx, req.params.receiverUmaAddress, sender)}
  })

  router.handle('lookupExternalAccount', (req, ctx) => {
    const sender = validate(receiverLookupQuery, Object.fromEntries(req.query))
    return {status: 200, body: lookupExternalReceiver(ctx, req.params.accountId, sender)}
  })

  router.handle('estimateCryptoWithdrawalFee', (req, ctx) => {
    const body = validate(estimateWithdrawalFeeRequest, req.body ?? {})
    return {status: 200, body: estimateWithdrawalFee(ctx, body)}
  })
}
