import {InputError, type FieldError} from '../errors.js'
import {fieldErrors} from '../schemas/field-errors.js'
import {estimateWithdrawalFeeRequest, type EstimateWithdrawalFeeRequest} from '../schemas/withdrawal.js'
import {currencyProblem, minorAmount} from './money-input.js'

export interface WithdrawalFlagValues {
  currency: string
  network: string
  to: string
  amount?: string
  'amount-minor'?: string
}

/** The estimate request from flags, checked with the shared schema (asset per network, address format), every bad field at once. */
export function withdrawalFeeInput(internalAccountId: string, f: WithdrawalFlagValues): EstimateWithdrawalFeeRequest {
  const errors: FieldError[] = []
  const code = currencyProblem(f.currency, 'currency', errors)
  if (f.amount === undefined && f['amount-minor'] === undefined)
    errors.push({field: 'amount', message: 'give --amount <real units> or --amount-minor <smallest units>'})
  const amount = minorAmount(f, code, 'amount', errors)
  // A placeholder amount keeps an amount problem from being reported twice.
  const r = estimateWithdrawalFeeRequest.safeParse({
    internalAccountId,
    currency: code ?? f.currency,
    cryptoNetwork: f.network,
    amount: amount ?? 1,
    destinationAddress: f.to.trim(),
  })
  if (!r.success) for (const e of fieldErrors(r.error)) if (!errors.some((x) => x.field === e.field)) errors.push(e)
  if (errors.length || !r.success) throw new InputError(errors)
  return r.data
}
