import {withdrawalFeeEstimateSchema, type EstimateWithdrawalFeeRequest} from '../schemas/withdrawal.js'
import {apiRequest} from './request.js'

export function estimateWithdrawalFee(body: EstimateWithdrawalFeeRequest) {
  return apiRequest(
    {method: 'POST', path: ['crypto', 'estimate-withdrawal-fee'], body},
    withdrawalFeeEstimateSchema,
    'withdrawal fee estimate',
  )
}
