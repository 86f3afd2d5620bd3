import {withdrawalFeeEstimateSchema, type EstimateWithdrawalFeeRequest} from '../schemas/withdrawal.js'
import type {ApiClient} from './client.js'

export async function estimateWithdrawalFee(client: ApiClient, body: EstimateWithdrawalFeeRequest) {
  const res = await client.request({method: 'POST', path: ['crypto', 'estimate-withdrawal-fee'], body})
  return client.parse(withdrawalFeeEstimateSchema, res.body, 'withdrawal fee estimate')
}
