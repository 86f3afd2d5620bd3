import {createAgent, myExecute, myQuote, redeemDeviceCode} from '../api/agents.js'
import {ApiClient} from '../api/client.js'
import {Secret} from '../secret.js'
import type {Recipe} from './recipe.js'
import {approvedIndividual, bankAccount, fund} from './setup.js'

/**
 * AGENT_ACTION.PENDING_APPROVAL: a customer's agent whose policy requires approval for every action
 * logs in (device code -> access token, held in memory only, never shown) and executes a payout
 * quote; the action waits for the platform and the webhook announces it.
 */
const agentAction: Recipe = async (kit) => {
  const {customer, accountId} = await approvedIndividual(kit)
  await fund(kit, accountId, 10_000)
  const to = await bankAccount(kit, customer.id!, '210')
  const policy = {
    // A USD bank payout from a USD account is a same-currency transfer: CREATE_TRANSFERS as well (issue 29, F8).
    permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: {currency: 'USD', perTransactionLimit: 100_000},
  }
  const {agent, deviceCode} = await kit.client.call(
    createAgent({
      name: `svc trigger ${kit.tag}`,
      customerId: customer.id!,
      policy,
    }),
  )
  kit.did(`created agent ${agent.id} for ${customer.id} (every action needs approval)`)
  const {accessToken} = await kit.client.call(redeemDeviceCode(deviceCode.code))
  const asAgent = new ApiClient({
    ...kit.client.opts,
    tokenId: undefined,
    secret: undefined,
    bearer: new Secret(accessToken),
  })
  try {
    const q = await asAgent.call({
      ...myQuote({
        source: {sourceType: 'ACCOUNT', accountId},
        destination: {destinationType: 'ACCOUNT', accountId: to},
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      }),
      idempotencyKey: kit.key('agent-quote'),
    })
    await asAgent.call({...myExecute(q.id), idempotencyKey: kit.key('agent-execute')})
    kit.did(`the agent logged in (device code) and executed ${q.id}: USD 10.00 to ${to}`)
  } finally {
    await asAgent.close()
  }
  return {objectId: agent.id, matches: (d) => d.agentId === agent.id}
}

export const agentRecipes: Record<string, Recipe> = {'AGENT_ACTION.PENDING_APPROVAL': agentAction}
