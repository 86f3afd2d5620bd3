import {getCard, issueCard, listCardTransactions, simulateCard, updateCard} from '../api/cards.js'
import {fromMinor} from '../money.js'
import type {Kit} from './kit.js'
import type {Recipe} from './recipe.js'
import {byId} from './recipe.js'
import {approvedIndividual, fund} from './setup.js'

/**
 * Card events come from the sandbox's card simulators (sandbox-behaviour.md §16): the outcome of a
 * simulated network message arrives only by webhook. The merchant descriptor's last three characters
 * pick the outcome (16c): 002 declined, 006 EXCEPTION, anything else approved.
 */
const PURCHASE = 1250

/** An approved customer with USD 100.00 and an ACTIVE virtual card on that account. */
async function activeCard(kit: Kit): Promise<{cardId: string; accountId: string}> {
  const {customer, accountId} = await approvedIndividual(kit)
  await fund(kit, accountId, 10_000)
  // The platform card id's suffix picks issuance (16a): 100 = ACTIVE almost at once.
  const card = await kit.client.call({
    ...issueCard({
      cardholderId: customer.id!,
      platformCardId: kit.key('card-100'),
      form: 'VIRTUAL',
      fundingSources: [accountId],
    }),
    idempotencyKey: kit.key('card'),
  })
  kit.did(`issued virtual card ${card.id} (${card.state})`)
  await kit.until(
    `${card.id} to become ACTIVE`,
    () => kit.client.call(getCard(card.id)),
    (c) => c.state === 'ACTIVE',
  )
  kit.did(`${card.id} is ACTIVE`)
  return {cardId: card.id, accountId}
}

async function authorize(kit: Kit, cardId: string, descriptor: string): Promise<string> {
  const {issuerTransactionToken} = await kit.client.call(
    simulateCard(cardId, 'authorization', {
      amount: PURCHASE,
      currency: {code: 'USD'},
      merchant: {descriptor, mcc: '5814', country: 'US'},
    }),
  )
  kit.did(
    `simulated a USD 12.50 authorization at "${descriptor}" on ${cardId} (issuer token ${issuerTransactionToken})`,
  )
  return issuerTransactionToken
}

/** The card transaction the authorization made, found in the public transaction list by its issuer token. */
async function transactionOf(kit: Kit, cardId: string, token: string): Promise<string> {
  const list = await kit.until(
    `the card transaction of ${token}`,
    () => listCardTransactions(kit.client, {cardId}, {limit: 100}),
    (l) => l.data.some((t) => t.issuerTransactionToken === token),
  )
  return list.data.find((t) => t.issuerTransactionToken === token)!.id
}

const byToken = (token: string) => (d: Record<string, unknown>) => d.issuerTransactionToken === token

const authorization =
  (descriptor: string): Recipe =>
  async (kit) => {
    const {cardId} = await activeCard(kit)
    const token = await authorize(kit, cardId, descriptor)
    return {objectId: token, matches: byToken(token)}
  }

/** Authorize, then one more simulator against that transaction (clearing, expiry). */
const thenSimulate =
  (kind: 'clearing' | 'authorization_expiry', amount?: number): Recipe =>
  async (kit) => {
    const {cardId} = await activeCard(kit)
    const token = await authorize(kit, cardId, 'BLUE BOTTLE COFFEE SF')
    const cardTransactionId = await transactionOf(kit, cardId, token)
    await kit.client.call(
      simulateCard(cardId, kind, amount === undefined ? {cardTransactionId} : {cardTransactionId, amount}),
    )
    kit.did(`simulated ${kind}${amount === undefined ? '' : ` of USD ${fromMinor(amount, 2)}`} on ${cardTransactionId}`)
    return {objectId: cardTransactionId, matches: byId(cardTransactionId)}
  }

const activation: Recipe = async (kit) => {
  const {cardId} = await activeCard(kit)
  return {objectId: cardId, matches: (d) => d.id === cardId && d.state === 'ACTIVE'}
}

const fundingChange: Recipe = async (kit) => {
  const {cardId, accountId} = await activeCard(kit)
  await kit.client.call(updateCard(cardId, {fundingSources: [accountId]}))
  kit.did(`set ${cardId}'s funding sources to [${accountId}]`)
  return {objectId: cardId, matches: byId(cardId)}
}

export const cardRecipes: Record<string, Recipe> = {
  'CARD_TRANSACTION.AUTHORIZED': authorization('BLUE BOTTLE COFFEE SF'),
  'CARD_TRANSACTION.PARTIALLY_SETTLED': thenSimulate('clearing', 500),
  'CARD_TRANSACTION.SETTLED': thenSimulate('clearing', PURCHASE),
  'CARD_TRANSACTION.EXCEPTION': authorization('BLUE BOTTLE COFFEE 006'),
  'CARD_TRANSACTION.VOIDED': thenSimulate('authorization_expiry'),
  'CARD_TRANSACTION.DECLINED': authorization('ELECTRONICS 002'),
  'CARD.STATE_CHANGE': activation,
  'CARD.FUNDING_SOURCE_CHANGE': fundingChange,
}
