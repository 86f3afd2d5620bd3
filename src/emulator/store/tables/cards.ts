/** Cards, their funding sources, transactions and reveals. */

import {text, createdAt, keyOnly, type TableDef} from '../schema.js'

export const CARDS_TABLES: TableDef[] = [
  {
    name: 'cards',
    columns: [
      text('cardholder_id', 'cardholderId'),
      text('platform_card_id', 'platformCardId'),
      text('state', 'state'),
      createdAt,
    ],
    indexes: [
      {columns: ['cardholder_id', 'state']},
      {columns: ['cardholder_id', 'created_at', 'id']},
      {columns: ['platform_card_id', 'created_at', 'id']},
      {columns: ['state', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
    ],
    counts: [{name: 'cards', when: () => '1'}],
    since: 2,
  },
  /** Which cards an internal account funds (GET /cards?accountId=): one row per (card, account). */
  {
    name: 'cardFundingSources',
    columns: [text('card_id', 'cardId'), text('account_id', 'accountId')],
    indexes: [{columns: ['account_id']}, {columns: ['card_id']}],
    since: 2,
  },
  {
    name: 'cardTransactions',
    columns: [
      text('card_id', 'cardId'),
      text('customer_id', 'customerId'),
      text('platform_customer_id', 'platformCustomerId'),
      text('account_id', 'accountId'),
      createdAt,
    ],
    indexes: [
      {columns: ['card_id', 'created_at', 'id']},
      {columns: ['customer_id', 'created_at', 'id']},
      {columns: ['platform_customer_id', 'created_at', 'id']},
      {columns: ['account_id', 'created_at', 'id']},
      {columns: ['created_at', 'id']},
    ],
    counts: [{name: 'cardTransactions', when: () => '1'}],
    rangeCounts: [{name: 'cardTransactions'}],
    since: 2,
  },
  {...keyOnly('cardReveals'), since: 2},
]
