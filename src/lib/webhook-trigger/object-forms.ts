import type {FieldError} from '../errors.js'
import {MoneyError, toMinor} from '../money.js'

/**
 * The event types `svc webhooks trigger TYPE --object <id>` can cause on an object that already
 * exists: which kind of object, the states it must be in, and the parameters (`--set field=value`)
 * the transition takes. Plain data shared by the CLI (checked before any request) and the sandbox
 * (which checks again against the object's real state, and refuses with every bad field).
 */
export type ObjectKind = 'Transaction' | 'Customer' | 'CardTransaction' | 'Card' | 'ExternalAccount'

export type TriggerParam =
  | {kind: 'amount'; description: string}
  | {kind: 'enum'; values: readonly string[]; description: string}
  | {kind: 'ids'; prefix: string; description: string}

export interface ObjectForm {
  type: string
  object: ObjectKind
  /** The states the object must be in, as the refusal names them. */
  needs: string
  /** What the sandbox does (the same domain code its simulators and jobs run). */
  how: string
  params: Readonly<Record<string, TriggerParam>>
}

/** The contract's failure reasons (openapi.yaml IncomingTransactionFailureReason / OutgoingTransactionFailureReason). */
const INCOMING_FAILURES = [
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'COMPLIANCE_REJECTED',
  'COLLECTION_FAILED',
] as const
const OUTGOING_FAILURES = [
  'QUOTE_EXPIRED',
  'QUOTE_RATE_UNAVAILABLE',
  'QUOTE_EXECUTION_FAILED',
  'FUNDING_AMOUNT_MISMATCH',
  'SCA_NOT_COMPLETED',
  'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED',
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'COMPLIANCE_REJECTED',
  'LIGHTNING_PAYMENT_FAILED',
  'COUNTERPARTY_POST_TX_FAILED',
] as const

const incomingFailure: TriggerParam = {
  kind: 'enum',
  values: INCOMING_FAILURES,
  description: 'the failureReason (default COMPLIANCE_REJECTED)',
}
const outgoingFailure: TriggerParam = {
  kind: 'enum',
  values: OUTGOING_FAILURES,
  description: 'the failureReason (default QUOTE_EXECUTION_FAILED)',
}
const PENDING_IN = 'an INCOMING payment in PENDING (waiting for the platform)'
const OPEN_OUT = 'an OUTGOING payment in PENDING or PROCESSING (not settled)'
const REFUNDING_IN = 'an INCOMING payment in FAILED whose refund is PENDING'
const OPEN_CARD = 'a card transaction in AUTHORIZED or PARTIALLY_SETTLED'

export const OBJECT_FORMS: readonly ObjectForm[] = [
  {
    type: 'INCOMING_PAYMENT.COMPLETED',
    object: 'Transaction',
    needs: PENDING_IN,
    how: 'approved; the money is credited',
    params: {},
  },
  {
    type: 'INCOMING_PAYMENT.FAILED',
    object: 'Transaction',
    needs: PENDING_IN,
    how: 'fails with the failure reason; nothing is credited',
    params: {failureReason: incomingFailure},
  },
  {
    type: 'INCOMING_PAYMENT.REFUND_PENDING',
    object: 'Transaction',
    needs: PENDING_IN,
    how: 'approved, crediting fails (OFFRAMP_FAILED), the refund to the sender starts',
    params: {},
  },
  {
    type: 'INCOMING_PAYMENT.REFUND_COMPLETED',
    object: 'Transaction',
    needs: REFUNDING_IN,
    how: 'the refund settles',
    params: {},
  },
  {
    type: 'INCOMING_PAYMENT.REFUND_FAILED',
    object: 'Transaction',
    needs: REFUNDING_IN,
    how: 'the refund fails',
    params: {},
  },
  {
    type: 'OUTGOING_PAYMENT.PROCESSING',
    object: 'Transaction',
    needs: "an agent's OUTGOING payment in PENDING (waiting for the platform's approval)",
    how: 'the platform approves it; settlement is scheduled',
    params: {},
  },
  {
    type: 'OUTGOING_PAYMENT.COMPLETED',
    object: 'Transaction',
    needs: 'an OUTGOING payment in PROCESSING',
    how: 'settles now; the held funds leave',
    params: {},
  },
  {
    type: 'OUTGOING_PAYMENT.FAILED',
    object: 'Transaction',
    needs: OPEN_OUT,
    how: 'fails with the failure reason; the held funds come back',
    params: {failureReason: outgoingFailure},
  },
  {
    type: 'OUTGOING_PAYMENT.REFUND_COMPLETED',
    object: 'Transaction',
    needs: OPEN_OUT,
    how: 'fails (QUOTE_EXECUTION_FAILED) and is refunded; the held funds come back',
    params: {},
  },
  {
    type: 'OUTGOING_PAYMENT.REFUND_FAILED',
    object: 'Transaction',
    needs: OPEN_OUT,
    how: 'fails (QUOTE_EXECUTION_FAILED) and its refund fails; the held funds are lost',
    params: {},
  },
  ...(['KYC', 'KYB'] as const).flatMap((k): ObjectForm[] => {
    const who = k === 'KYC' ? 'an individual' : 'a business'
    return [
      {
        type: `CUSTOMER.${k}_PENDING`,
        object: 'Customer',
        needs: `${who} in UNVERIFIED or HOLD with a complete packet`,
        how: 'submitted; review begins (the decision follows by the magic suffix)',
        params: {},
      },
      {
        type: `CUSTOMER.${k}_APPROVED`,
        object: 'Customer',
        needs: `${who} in PENDING`,
        how: 'the review approves',
        params: {},
      },
      {
        type: `CUSTOMER.${k}_REJECTED`,
        object: 'Customer',
        needs: `${who} in PENDING`,
        how: 'the review rejects',
        params: {},
      },
    ]
  }),
  {
    type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
    object: 'ExternalAccount',
    needs: 'an external account in PENDING (being validated)',
    how: 'validation finishes; ACTIVE',
    params: {},
  },
  {
    type: 'CARD.STATE_CHANGE',
    object: 'Card',
    needs: 'a card in PROCESSING, ACTIVE or FROZEN',
    how: 'PROCESSING: provisioning finishes (ACTIVE); ACTIVE <-> FROZEN, or CLOSED',
    params: {
      state: {
        kind: 'enum',
        values: ['ACTIVE', 'FROZEN', 'CLOSED'],
        description: 'the new state (default: ACTIVE from PROCESSING or FROZEN, FROZEN from ACTIVE)',
      },
    },
  },
  {
    type: 'CARD.FUNDING_SOURCE_CHANGE',
    object: 'Card',
    needs: 'a card in ACTIVE or FROZEN',
    how: "its funding accounts are set (the cardholder's, in the card's currency)",
    params: {
      fundingSources: {
        kind: 'ids',
        prefix: 'InternalAccount',
        description: 'the funding accounts, comma-separated, in priority order (default: the ones it has)',
      },
    },
  },
  {
    type: 'CARD_TRANSACTION.PARTIALLY_SETTLED',
    object: 'CardTransaction',
    needs: OPEN_CARD,
    how: 'the merchant clears part of what is still open',
    params: {amount: {kind: 'amount', description: 'the amount cleared, below what is open (default: half of it)'}},
  },
  {
    type: 'CARD_TRANSACTION.SETTLED',
    object: 'CardTransaction',
    needs: OPEN_CARD,
    how: 'the merchant clears the rest (more is pulled from the funding account)',
    params: {
      amount: {kind: 'amount', description: 'the amount cleared, at least what is open (default: exactly that)'},
    },
  },
  {
    type: 'CARD_TRANSACTION.VOIDED',
    object: 'CardTransaction',
    needs: 'a card transaction in AUTHORIZED with nothing settled',
    how: 'the authorization expires; the hold is released',
    params: {},
  },
]

export function objectForm(type: string): ObjectForm | undefined {
  return OBJECT_FORMS.find((f) => f.type === type)
}

/** The `--object` form of a type for `--list`: what it happens to, from which states, with which parameters. */
export function objectFormOf(type: string) {
  const f = objectForm(type)
  return f ? {object: {kind: f.object, needs: f.needs, how: f.how, params: Object.keys(f.params)}} : {}
}

/** The object kind an id names by its prefix (`Transaction:...` -> Transaction). */
export const kindOfId = (id: string): string => id.split(':')[0]

/**
 * Checks `--set` parameters against a form: every unknown field, malformed pair or bad value at
 * once, each naming what is allowed. Values stay strings; amounts are read against the object's
 * currency by the sandbox (`amountOf`), which is the only side that knows it.
 */
export function checkSets(form: ObjectForm, set: Readonly<Record<string, string>>): FieldError[] {
  const allowed = Object.keys(form.params)
  const list = allowed.length ? allowed.join(', ') : `none (${form.type} takes no parameters)`
  const errors: FieldError[] = []
  for (const [name, value] of Object.entries(set)) {
    const p = form.params[name]
    if (!p) errors.push({field: `set.${name}`, message: `is not a parameter of ${form.type}; allowed: ${list}`})
    else if (p.kind === 'enum' && !p.values.includes(value))
      errors.push({field: `set.${name}`, message: `"${value}" must be one of ${p.values.join(', ')}`})
    else if (p.kind === 'amount' && !/^\d+(\.\d+)?$/.test(value))
      errors.push({field: `set.${name}`, message: `"${value}" must be a positive decimal amount (e.g. 5.00)`})
    else if (p.kind === 'ids' && !idList(value, p.prefix))
      errors.push({field: `set.${name}`, message: `"${value}" must be ${p.prefix}:... ids, comma-separated (1 to 10)`})
  }
  return errors
}

/** The ids of a comma-separated list, when each has the prefix (1 to 10 of them); else undefined. */
export function idList(value: string, prefix: string): string[] | undefined {
  const ids = value.split(',').map((v) => v.trim())
  return ids.length <= 10 && ids.every((id) => id.startsWith(`${prefix}:`) && id.length > prefix.length + 1)
    ? ids
    : undefined
}

/** `field=value` pairs as given to `--set`, or the errors of the malformed ones. */
export function parseSetPairs(pairs: readonly string[]): {set: Record<string, string>; errors: FieldError[]} {
  const set: Record<string, string> = {}
  const errors: FieldError[] = []
  for (const pair of pairs) {
    const i = pair.indexOf('=')
    if (i <= 0) errors.push({field: 'set', message: `"${pair}" must be field=value`})
    else if (pair.slice(0, i) in set) errors.push({field: `set.${pair.slice(0, i)}`, message: 'is given twice'})
    else set[pair.slice(0, i)] = pair.slice(i + 1)
  }
  return {set, errors}
}

/** A checked amount parameter in minor units of a currency with `decimals`; a message when it does not fit. */
export function amountOf(value: string, decimals: number): number | string {
  try {
    const minor = toMinor(value, decimals)
    return minor > 0 ? minor : 'must be more than zero'
  } catch (e) {
    if (e instanceof MoneyError) return e.message
    throw e
  }
}
