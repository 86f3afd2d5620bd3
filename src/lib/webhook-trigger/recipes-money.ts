import {approveTransaction} from '../api/transactions.js'
import {sandboxUmaReceive} from '../api/uma.js'
import {ApiError} from '../errors.js'
import {quoteSchema} from '../schemas/quotes.js'
import {SANDBOX_UMA_DOMAIN} from '../schemas/uma.js'
import type {Kit} from './kit.js'
import type {Recipe} from './recipe.js'
import {byId} from './recipe.js'
import {approvedIndividual, fund, payout, payoutQuote} from './setup.js'

/** A bank account number ending in this completes normally (not 002-007, not a 1xx name-check suffix). */
const SUCCESS = '210'

const funded: Recipe = async (kit) => {
  const {accountId} = await approvedIndividual(kit)
  await fund(kit, accountId, 1000)
  return {
    objectId: accountId,
    matches: (d) =>
      d.type === 'INCOMING' && (d.destination as {accountId?: string} | undefined)?.accountId === accountId,
  }
}

/** A payout whose destination's suffix decides the outcome (sandbox-behaviour.md §9). */
const paidTo =
  (suffix: string): Recipe =>
  async (kit) => {
    const {quote} = await payout(kit, suffix)
    return {objectId: String(quote.transactionId ?? quote.id), matches: (d) => d.quoteId === quote.id}
  }

/** An agent-initiated payment waits PENDING; the platform's approval moves it to PROCESSING. */
const approvedAgentPayment: Recipe = async (kit) => {
  const {quote} = await payoutQuote(kit, SUCCESS)
  const res = await kit.client.request({
    method: 'POST',
    path: ['sandbox', 'quotes', quote.id, 'execute-as-agent'],
    body: {},
  })
  const executed = kit.client.parse(quoteSchema, res.body, 'quote')
  const txId = String(executed.transactionId)
  kit.did(`executed ${quote.id} as an agent: ${txId} waits for the platform's approval`)
  const t = await kit.client.call(approveTransaction(txId))
  kit.did(`approved ${txId} (${t.status})`)
  return {objectId: txId, matches: byId(txId)}
}

/**
 * A sandbox UMA sender pays a fresh approved customer (POST /sandbox/uma/receive). For `approve`,
 * the platform approves at once (POST /transactions/{id}/approve) rather than waiting for the
 * sandbox's default; if the default came first the payment is already decided, which is the same.
 */
const umaPayment =
  (sender: string, approve: boolean): Recipe =>
  async (kit) => {
    const {customer} = await approvedIndividual(kit)
    const senderUmaAddress = `$${sender}.usd@${SANDBOX_UMA_DOMAIN}`
    const t = await kit.client.call(
      sandboxUmaReceive({
        senderUmaAddress,
        customerId: customer.id!,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 700,
      }),
    )
    kit.did(`${senderUmaAddress} pays ${customer.id} USD 7.00: ${t.id} (${t.status})`)
    if (approve) await approveNow(kit, t.id)
    return {objectId: t.id, matches: byId(t.id)}
  }

async function approveNow(kit: Kit, id: string): Promise<void> {
  try {
    const t = await kit.client.call(approveTransaction(id))
    kit.did(`approved ${id} as the platform (${t.status})`)
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL')) throw e
    kit.did(`${id} was already decided by the sandbox's default approval`)
  }
}

export const moneyRecipes: Record<string, Recipe> = {
  'INCOMING_PAYMENT.COMPLETED': funded,
  'OUTGOING_PAYMENT.COMPLETED': paidTo(SUCCESS),
  'INCOMING_PAYMENT.REFUND_PENDING': umaPayment('refund', true),
  'INCOMING_PAYMENT.REFUND_COMPLETED': umaPayment('refund', true),
  'INCOMING_PAYMENT.REFUND_FAILED': umaPayment('refund.fail', true),
  'INCOMING_PAYMENT.PENDING': umaPayment('pending.long', false),
  'INCOMING_PAYMENT.FAILED': umaPayment('fail.compliance', false),
  'OUTGOING_PAYMENT.PROCESSING': approvedAgentPayment,
  'OUTGOING_PAYMENT.FAILED': paidTo('002'),
  'OUTGOING_PAYMENT.REFUND_COMPLETED': paidTo('006'),
  'OUTGOING_PAYMENT.REFUND_FAILED': paidTo('007'),
}
