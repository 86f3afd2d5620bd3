import {Flags} from '@oclif/core'
import {idFlag} from './flags.js'
import {CRYPTO_NETWORKS, PAYMENT_RAILS, PURPOSES} from './schemas/quote-enums.js'

/** Quote terms shared by `quote create` and `quote send`. */
export const quoteTermFlags = {
  from: idFlag(['InternalAccount', 'ExternalAccount'], {
    description: 'source: an internal account, or a pullable external account (US bank)',
    name: 'source.accountId',
  }),
  to: idFlag(['ExternalAccount', 'InternalAccount'], {
    description: 'destination account',
    name: 'destination.accountId',
  }),
  customer: idFlag('Customer', {
    description: 'paying customer (required with --realtime; narrows account look-ups)',
    name: 'source.customerId',
  }),
  rail: Flags.string({description: 'payment rail; ACH_SAME_DAY is used only when named', options: [...PAYMENT_RAILS]}),
  send: Flags.string({description: 'lock the sending side: amount in real units (250.00)'}),
  'amount-minor': Flags.string({description: 'amount in smallest units (with --lock)'}),
  description: Flags.string({description: 'description carried on the transaction'}),
  purpose: Flags.string({description: 'purposeOfPayment', options: [...PURPOSES]}),
  remittance: Flags.string({description: 'remittance information (ACH addenda, wire OBI), up to 80 characters'}),
}

export const quoteCreateFlags = {
  ...quoteTermFlags,
  realtime: Flags.boolean({
    description: 'fund just in time against payment instructions (needs --customer and --currency)',
  }),
  currency: Flags.string({description: 'real-time funding currency (USD, USDC ...)'}),
  network: Flags.string({
    description: 'crypto network for real-time stablecoin funding',
    options: [...CRYPTO_NETWORKS],
  }),
  receive: Flags.string({description: 'lock the receiving side: amount in real units (4500.00)'}),
  'to-uma': Flags.string({
    description: 'destination: an UMA address ($name@domain); it is looked up first and the quote carries its lookupId',
    exclusive: ['to', 'rail'],
  }),
  'to-currency': Flags.string({
    description: 'with --to-uma: the receiving currency (one the receiver offers; default its first)',
  }),
  'lookup-id': Flags.string({
    description:
      'with --to-uma: a lookupId from `svc quote receiver` instead of a new lookup (a retry with the same --idempotency-key then sends the same request)',
  }),
  'payer-info': Flags.string({
    description:
      'with --to-uma: payer data the receiver asks for, NAME=value (repeatable; default from the customer record)',
    multiple: true,
    multipleNonGreedy: true,
  }),
  lock: Flags.string({description: 'side --amount-minor locks', options: ['sending', 'receiving'], default: 'sending'}),
  'platform-fee': Flags.string({description: 'platform fee override: fixed USD amount (USD sources only)'}),
  'platform-fee-bps': Flags.integer({
    description: 'platform fee override: basis points (USD sources only)',
    min: 0,
    max: 10000,
  }),
}
