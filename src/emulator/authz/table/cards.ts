import {type AuthzEntry, READ, TRANSACT, MANAGE, op, own} from './build.js'

/** The simulators the contract names, an operation each; the sandbox's own route serves the rest. */
export const CONTRACT_CARD_SIMULATORS = [
  'authorization',
  'clearing',
  'return',
  'balance_inquiry',
  'credit_authorization',
  'financial_authorization',
  'financial_credit_authorization',
  'authorization_advice',
  'credit_authorization_advice',
  'return_reversal',
]
const camel = (s: string) => s.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())

/** Cards */
export const CARDS: readonly AuthzEntry[] = [
  op('GET', '/cards', 'listCards', READ),
  op('POST', '/cards', 'createCard', MANAGE, {
    note: 'Issuing a card to a customer is managing the customer.',
    // A retried issue replays the first answer, never a second card.
    idempotency: {scope: 'cards'},
  }),
  op('GET', '/cards/{id}', 'getCardById', READ),
  op('PATCH', '/cards/{id}', 'updateCardById', MANAGE),
  op('POST', '/cards/{id}/reveal', 'revealCard', MANAGE, {
    note: 'A bearer URL to the full PAN and CVV: more than "view", so not for a read-only token.',
  }),
  ...CONTRACT_CARD_SIMULATORS.map((kind) =>
    op('POST', `/sandbox/cards/{id}/simulate/${kind}`, `sandboxSimulateCard${camel(kind)}`, TRANSACT),
  ),
  own(
    'POST',
    '/sandbox/cards/{id}/simulate/{kind}',
    TRANSACT,
    'The other simulators (authorization_expiry; an unknown kind is a 400 naming the kinds).',
  ),
]
