import {InputError, usageError, type FieldError} from '../errors.js'
import {webhookUrl} from '../schemas/webhooks.js'
import {editDistance} from '../suggest.js'

/**
 * The event types `svc webhooks trigger` can produce, with what it makes the sandbox do for each.
 * Plain data (no API code), so `--list` and the check of a typed name cost nothing at start-up.
 * Spec §6 types first; then the other types the sandbox emits.
 */
export const TRIGGERABLE: ReadonlyArray<{
  type: string
  how: string
  spec: boolean
  /** Needs a local-sandbox helper or knob. */ localOnly?: true
}> = [
  {type: 'TEST', how: 'POST /sandbox/webhooks/test: a signed TEST event straight to the endpoint', spec: true},
  {
    type: 'INCOMING_PAYMENT.COMPLETED',
    how: 'an approved customer; its USD account is funded (sandbox fund)',
    spec: true,
  },
  {
    type: 'OUTGOING_PAYMENT.COMPLETED',
    how: 'fund, quote USD 10.00 to a bank account, execute; the payout settles',
    spec: true,
  },
  {
    type: 'INCOMING_PAYMENT.REFUND_PENDING',
    how: 'a $refund.usd UMA sender pays; approved, crediting fails, the refund starts',
    spec: true,
  },
  {type: 'INCOMING_PAYMENT.REFUND_COMPLETED', how: 'as REFUND_PENDING; the refund to the sender settles', spec: true},
  {
    type: 'INCOMING_PAYMENT.REFUND_FAILED',
    how: 'a $refund.fail.usd UMA sender pays; approved, crediting fails, the refund fails',
    spec: true,
  },
  {type: 'CUSTOMER.KYC_PENDING', how: 'an individual with a complete packet is submitted; review begins', spec: true},
  {type: 'CUSTOMER.KYC_APPROVED', how: 'as KYC_PENDING; the decision (name suffix: other) approves', spec: true},
  {
    type: 'CUSTOMER.KYC_REJECTED',
    how: 'as KYC_PENDING with a full name ending in 002; the decision rejects',
    spec: true,
  },
  {type: 'CUSTOMER.KYB_PENDING', how: 'a business with documents and an owner is submitted; review begins', spec: true},
  {
    type: 'CUSTOMER.KYB_APPROVED',
    how: 'as KYB_PENDING; the decision (registration suffix: other) approves',
    spec: true,
  },
  {
    type: 'CUSTOMER.KYB_REJECTED',
    how: 'as KYB_PENDING with a registration number ending in 002; the decision rejects',
    spec: true,
  },
  {
    type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
    how: 'a first-party Ethereum wallet proves ownership with a real EIP-191 signature; ACTIVE',
    spec: true,
  },
  {
    type: 'CARD_TRANSACTION.AUTHORIZED',
    how: 'a funded card; a USD 12.50 purchase is authorized (card simulator)',
    spec: true,
  },
  {type: 'CARD_TRANSACTION.PARTIALLY_SETTLED', how: 'as AUTHORIZED; the merchant clears USD 5.00 of it', spec: true},
  {type: 'CARD_TRANSACTION.SETTLED', how: 'as AUTHORIZED; the merchant clears the full amount', spec: true},
  {
    type: 'CARD_TRANSACTION.EXCEPTION',
    how: 'an authorization whose merchant descriptor ends in 006: the pull is confirmed FAILED',
    spec: true,
  },
  {
    type: 'CARD_TRANSACTION.VOIDED',
    how: 'as AUTHORIZED; the authorization expires (authorization_expiry simulator)',
    spec: true,
  },
  {
    type: 'wallet_operation.completed',
    how: 'an embedded-wallet OTP login whose signed leg is still processing settles (sets the local sandbox knob walletProcessingCount to 1)',
    spec: true,
    localOnly: true,
  },
  {
    type: 'INCOMING_PAYMENT.PENDING',
    how: 'a $pending.long.usd UMA sender pays; the payment waits for the platform',
    spec: false,
  },
  {type: 'INCOMING_PAYMENT.FAILED', how: 'a $fail.compliance.usd UMA sender pays; compliance rejects it', spec: false},
  {
    type: 'OUTGOING_PAYMENT.PROCESSING',
    how: "a quote executed as an agent (the local sandbox's execute-as-agent helper) waits for approval; the platform approves it",
    spec: false,
    localOnly: true,
  },
  {
    type: 'OUTGOING_PAYMENT.FAILED',
    how: 'a payout to a bank account ending in 002 fails (QUOTE_EXECUTION_FAILED)',
    spec: false,
  },
  {
    type: 'OUTGOING_PAYMENT.REFUND_COMPLETED',
    how: 'a payout to a bank account ending in 006 is cancelled and refunded',
    spec: false,
  },
  {
    type: 'OUTGOING_PAYMENT.REFUND_FAILED',
    how: 'a payout to a bank account ending in 007 fails and so does its refund',
    spec: false,
  },
  {
    type: 'CARD_TRANSACTION.DECLINED',
    how: 'an authorization whose merchant descriptor ends in 002 is declined (INSUFFICIENT_FUNDS)',
    spec: false,
  },
  {type: 'CARD.STATE_CHANGE', how: 'a card is issued and becomes ACTIVE', spec: false},
  {
    type: 'CARD.FUNDING_SOURCE_CHANGE',
    how: 'an active card is given its funding account again (PATCH fundingSources)',
    spec: false,
  },
  {
    type: 'AGENT_ACTION.PENDING_APPROVAL',
    how: "a customer's agent whose policy requires approval executes a payout quote",
    spec: false,
  },
  {type: 'INVITATION.CLAIMED', how: 'a customer invites someone; the invitation is claimed', spec: false},
  {type: 'BULK_UPLOAD.COMPLETED', how: 'a one-row customer CSV is imported', spec: false},
  {type: 'BULK_UPLOAD.FAILED', how: 'a customer CSV whose only row is invalid is imported', spec: false},
]

export const TRIGGERABLE_TYPES = TRIGGERABLE.map((t) => t.type)

/** The known type spelled as given, ignoring case (`wallet_operation.completed` is lower case in the spec). */
export function knownType(given: string): string | undefined {
  return TRIGGERABLE_TYPES.find((t) => t.toLowerCase() === given.toLowerCase())
}

/** Up to three known types close to a mistyped one: same resource (the part before the dot) or a few edits away. */
export function closeMatches(given: string): string[] {
  const g = given.toUpperCase()
  const resource = g.split('.')[0]
  const scored = TRIGGERABLE_TYPES.map((t) => ({t, d: editDistance(g, t.toUpperCase())}))
  const near = scored.filter(
    ({t, d}) =>
      d <= Math.max(2, Math.floor(g.length / 3)) || (resource.length > 2 && t.toUpperCase().split('.')[0] === resource),
  )
  return near
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({t}) => t)
}

/**
 * `svc webhooks trigger [type] [--url]` checked before anything is sent: the type (TEST when none is
 * given; a mistyped one names the close matches) and the URL, every problem at once (exit 2).
 */
export function triggerInput(given: string | undefined, url: string | undefined): string {
  const type = given === undefined ? 'TEST' : knownType(given)
  const errors: FieldError[] = []
  if (!type) {
    const near = closeMatches(given!)
    errors.push({
      field: 'type',
      message: `"${given}" is not an event type svc can trigger${near.length ? `; did you mean ${near.join(', ')}?` : ''}`,
    })
  }
  if (url !== undefined && !webhookUrl.safeParse(url).success)
    errors.push({field: 'url', message: `"${url}" must be an http(s) URL`})
  if (errors.length || !type)
    throw new InputError(errors, undefined, 'See `svc webhooks trigger --list`; nothing was sent.')
  return type
}

/**
 * What a recipe (a type without --object) needs besides a known type: a local sandbox when the
 * recipe uses a local-only helper, and no --dry-run (a recipe is several requests, each built on
 * the answer before, so there is no one request to show).
 */
export function refuseRecipe(type: string, o: {local: boolean; dryRun: boolean}): void {
  if (TRIGGERABLE.find((t) => t.type === type)?.localOnly && !o.local)
    throw usageError(
      `${type} can be triggered only against the local sandbox: its recipe uses a local-sandbox helper`,
      'Use the local profile (`svc sandbox serve`), or see `svc webhooks trigger --list`.',
    )
  if (o.dryRun && type !== 'TEST')
    throw usageError(
      `--dry-run shows one request; ${type} is made by a recipe of several, each depending on the answer before`,
      'See `svc webhooks trigger --list` for what it does; --dry-run describes TEST.',
    )
}
