import type {ObjectTriggerRequest} from '../../lib/schemas/webhooks.js'
import {
  OBJECT_FORMS,
  amountOf,
  checkSets,
  idList,
  kindOfId,
  objectForm,
  type ObjectForm,
} from '../../lib/webhook-trigger/object-forms.js'
import type {SandboxContext} from '../context.js'
import {conflict, invalid} from '../http-error.js'
import {eventsAfter, maxEventSeq} from '../store/events.js'
import {fullyOpen, clear, getCardTransaction, publicCardTransaction, voidAuthorization} from './card-transactions.js'
import {finishProvisioning, getCard, publicCard, updateCard} from './cards.js'
import {getCustomer, publicCustomer} from './customers.js'
import {getExternalAccount, isSelfCustodyWallet, publicExternalAccount, setStatus} from './external-accounts.js'
import {
  completeIncoming,
  failCrediting,
  failIncoming,
  isAwaitingDecision,
  settleIncomingRefund,
} from './incoming-uma.js'
import {beginReview, decide, isTerminalSuffix, suffixOf} from './kyc-decisions.js'
import {statusOf} from './kyc-records.js'
import {verificationErrors} from './kyc-rules.js'
import {approveTransaction, completePayment, failPayment, getTransaction, publicTransaction} from './transactions.js'

/**
 * `svc webhooks trigger TYPE --object ID`: the sandbox takes an object that exists through the
 * transition that emits TYPE, by the same domain functions its simulators, jobs and decision routes
 * run (never a made-up event). The object's state must allow it: otherwise 409 naming its state and
 * the states TYPE needs. The answer is the object as it now is and every event the transition emitted.
 */
export interface TriggerOutcome {
  object: Record<string, unknown>
  events: Array<{id: string; type: string}>
}

type Set = Readonly<Record<string, string>>
type Apply = (ctx: SandboxContext, form: ObjectForm, id: string, set: Set) => Record<string, unknown>

export function triggerOnObject(ctx: SandboxContext, input: ObjectTriggerRequest): TriggerOutcome {
  const form = objectForm(input.type)
  if (!form)
    throw invalid([
      {
        field: 'type',
        message: `${input.type} has no object form; these do: ${OBJECT_FORMS.map((f) => f.type).join(', ')}`,
      },
    ])
  const errors = checkSets(form, input.set ?? {})
  if (kindOfId(input.objectId) !== form.object)
    errors.unshift({field: 'objectId', message: `${form.type} is about a ${form.object}: a ${form.object}:... id`})
  if (errors.length) throw invalid(errors)
  const before = maxEventSeq(ctx.db)
  const object = APPLY[form.object](ctx, form, input.objectId, input.set ?? {})
  const events = eventsAfter(ctx.db, before).map((e) => ({id: e.event.id, type: e.event.type}))
  return {object, events}
}

/** 409: the object is not in a state the transition starts from. */
function wrongState(form: ObjectForm, id: string, state: string, details: Record<string, unknown> = {}) {
  return conflict('TRIGGER_STATE_NOT_ALLOWED', `${id} is ${state}; ${form.type} needs ${form.needs}`, {
    objectId: id,
    state,
    needs: form.needs,
    ...details,
  })
}

const onTransaction: Apply = (ctx, form, id, set) => {
  const t = getTransaction(ctx, id)
  const state = `${t.type} ${t.status}${t.refund ? ` (refund ${String(t.refund.status)})` : ''}`
  const need = (ok: boolean) => {
    if (!ok) throw wrongState(form, id, state)
  }
  const openOut = t.type === 'OUTGOING' && (t.status === 'PENDING' || t.status === 'PROCESSING')
  const refunding = t.type === 'INCOMING' && t.status === 'FAILED' && t.refund?.status === 'PENDING'
  let next
  switch (form.type) {
    case 'INCOMING_PAYMENT.COMPLETED':
      need(isAwaitingDecision(t))
      next = completeIncoming(ctx, t)
      break
    case 'INCOMING_PAYMENT.FAILED':
      need(isAwaitingDecision(t))
      next = failIncoming(ctx, t, set.failureReason ?? 'COMPLIANCE_REJECTED')
      break
    case 'INCOMING_PAYMENT.REFUND_PENDING':
      need(isAwaitingDecision(t))
      next = failCrediting(ctx, t)
      break
    case 'INCOMING_PAYMENT.REFUND_COMPLETED':
    case 'INCOMING_PAYMENT.REFUND_FAILED':
      need(refunding)
      next = settleIncomingRefund(ctx, t, form.type === 'INCOMING_PAYMENT.REFUND_COMPLETED')
      break
    case 'OUTGOING_PAYMENT.PROCESSING':
      need(t.type === 'OUTGOING' && t.status === 'PENDING' && Boolean(t.agentId))
      next = approveTransaction(ctx, t)
      break
    case 'OUTGOING_PAYMENT.COMPLETED':
      need(t.type === 'OUTGOING' && t.status === 'PROCESSING')
      next = completePayment(ctx, t)
      break
    case 'OUTGOING_PAYMENT.FAILED':
      need(openOut)
      next = failPayment(ctx, t, set.failureReason ?? 'QUOTE_EXECUTION_FAILED')
      break
    default: // OUTGOING_PAYMENT.REFUND_COMPLETED / REFUND_FAILED: as the settlement job fails a payment with a refund
      need(openOut)
      next = failPayment(ctx, t, 'QUOTE_EXECUTION_FAILED', {
        status: form.type === 'OUTGOING_PAYMENT.REFUND_COMPLETED' ? 'COMPLETED' : 'FAILED',
        reason: 'TRANSACTION_FAILED',
      })
  }
  return publicTransaction(next)
}

const onCustomer: Apply = (ctx, form, id) => {
  const c = getCustomer(ctx, id)
  const status = statusOf(c)
  const business = c.customerType === 'BUSINESS'
  const outcome = form.type.split('_').at(-1)! as 'PENDING' | 'APPROVED' | 'REJECTED'
  const state = `${c.customerType} ${status}`
  if (form.type.startsWith('CUSTOMER.KYB') !== business) throw wrongState(form, id, state)
  if (outcome === 'PENDING') {
    if (status !== 'UNVERIFIED' && status !== 'HOLD') throw wrongState(form, id, state)
    // As POST /verifications judges a submission (the skip-paperwork option included).
    const skip = ctx.settings().skipVerificationPaperwork && business && isTerminalSuffix(suffixOf(c))
    const missing = verificationErrors(ctx, c, {paperwork: !skip})
    if (missing.length)
      throw wrongState(
        form,
        id,
        `${state} with an incomplete packet (${missing.map((e) => e.field ?? e.type).join(', ')})`,
        {
          errors: missing,
        },
      )
    return publicCustomer(beginReview(ctx, c, 'svc webhooks trigger'))
  }
  if (status !== 'PENDING') throw wrongState(form, id, state)
  decide(ctx, c.id, outcome)
  return publicCustomer(getCustomer(ctx, id))
}

const onExternalAccount: Apply = (ctx, form, id) => {
  const a = getExternalAccount(ctx, id)
  if (a.status !== 'PENDING') throw wrongState(form, id, a.status)
  if (isSelfCustodyWallet(a))
    throw wrongState(form, id, `${a.status}, a self-custody wallet (it becomes ACTIVE only by proving ownership)`)
  return publicExternalAccount(setStatus(ctx, a, 'ACTIVE'))
}

const onCard: Apply = (ctx, form, id, set) => {
  const card = getCard(ctx, id)
  if (form.type === 'CARD.FUNDING_SOURCE_CHANGE') {
    if (card.state !== 'ACTIVE' && card.state !== 'FROZEN') throw wrongState(form, id, card.state)
    const fundingSources = set.fundingSources ? idList(set.fundingSources, 'InternalAccount')! : card.fundingSources
    return publicCard(updateCard(ctx, card, {fundingSources}))
  }
  const wanted = set.state
  if (card.state === 'PROCESSING') {
    if (wanted === 'FROZEN')
      throw invalid([
        {field: 'set.state', message: 'a PROCESSING card becomes ACTIVE (provisioned) or CLOSED (rejected)'},
      ])
    return publicCard(finishProvisioning(ctx, card, wanted === 'CLOSED'))
  }
  if (card.state !== 'ACTIVE' && card.state !== 'FROZEN') throw wrongState(form, id, card.state)
  const next = (wanted ?? (card.state === 'ACTIVE' ? 'FROZEN' : 'ACTIVE')) as 'ACTIVE' | 'FROZEN' | 'CLOSED'
  if (next === card.state) throw invalid([{field: 'set.state', message: `${id} is already ${next}`}])
  return publicCard(updateCard(ctx, card, {state: next}))
}

const onCardTransaction: Apply = (ctx, form, id, set) => {
  const t = getCardTransaction(ctx, id)
  if (form.type === 'CARD_TRANSACTION.VOIDED') {
    if (!fullyOpen(t)) throw wrongState(form, id, `${t.status} with ${t.settledAmount.amount} settled`)
    return publicCardTransaction(voidAuthorization(ctx, t)!)
  }
  if (t.status !== 'AUTHORIZED' && t.status !== 'PARTIALLY_SETTLED') throw wrongState(form, id, t.status)
  const open = Math.max(0, t.authorizedAmount.amount - t.settledAmount.amount)
  const decimals = Number((t.authorizedAmount.currency as {decimals?: number}).decimals ?? 2)
  const partial = form.type === 'CARD_TRANSACTION.PARTIALLY_SETTLED'
  const given = set.amount === undefined ? undefined : amountOf(set.amount, decimals)
  if (typeof given === 'string') throw invalid([{field: 'set.amount', message: given}])
  const amount = given ?? (partial ? Math.floor(open / 2) : open)
  if (partial && (amount <= 0 || amount >= open))
    throw invalid([
      {
        field: 'set.amount',
        message: `a partial clearing must be more than zero and below the ${open} minor units still open`,
      },
    ])
  if (!partial && (amount <= 0 || amount < open))
    throw invalid([
      {field: 'set.amount', message: `a final clearing must be at least the ${open} minor units still open`},
    ])
  return publicCardTransaction(clear(ctx, t, amount))
}

const APPLY: Record<ObjectForm['object'], Apply> = {
  Transaction: onTransaction,
  Customer: onCustomer,
  ExternalAccount: onExternalAccount,
  Card: onCard,
  CardTransaction: onCardTransaction,
}
