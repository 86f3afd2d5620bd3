import type {SandboxContext} from '../context.js'
import {publicCustomer, saveCustomer, type StoredCustomer} from './customers.js'
import {ownersOf, statusKey, statusOf, type StoredOwner} from './kyc-records.js'

/**
 * Sandbox outcomes (spec 4.2 rule 8, sandbox-behaviour 2-5). The last three characters of an
 * individual's fullName, a business's registrationNumber or an owner's lastName decide:
 *   001 stays PENDING (manual review, no decision)   002 REJECTED
 *   004 HOLD (our choice: the spec leaves moves into HOLD open)   anything else APPROVED
 * 003 approves too, but like 001 (and 004) it always needs the complete packet, even with the
 * skip-paperwork option. Decisions land `decisionDelayMs` after review begins, as a durable job.
 */
export type Outcome = 'APPROVED' | 'REJECTED' | 'HOLD' | 'MANUAL_REVIEW'

export function suffixOf(c: StoredCustomer): string {
  const source = c.customerType === 'BUSINESS' ? c.businessInfo?.registrationNumber : c.fullName
  return typeof source === 'string' ? source.trim().slice(-3) : ''
}

/** Suffixes the skip-paperwork option resolves without documents (002 and "other"). */
export function isTerminalSuffix(suffix: string): boolean {
  return !['001', '003', '004'].includes(suffix)
}

function bySuffix(suffix: string): Outcome {
  if (suffix === '001') return 'MANUAL_REVIEW'
  if (suffix === '002') return 'REJECTED'
  if (suffix === '004') return 'HOLD'
  return 'APPROVED'
}

function ownerOutcome(o: StoredOwner): Outcome {
  return bySuffix(String(o.personalInfo.lastName).trim().slice(-3))
}

/** A business is rejected if an owner is, and waits for review if an owner does. */
export function outcomeFor(ctx: SandboxContext, c: StoredCustomer): Outcome {
  const own = bySuffix(suffixOf(c))
  if (c.customerType !== 'BUSINESS' || own !== 'APPROVED') return own
  const owners = ownersOf(ctx, c.id).map(ownerOutcome)
  if (owners.includes('REJECTED')) return 'REJECTED'
  if (owners.includes('MANUAL_REVIEW')) return 'MANUAL_REVIEW'
  if (owners.includes('HOLD')) return 'HOLD'
  return 'APPROVED'
}

function eventPrefix(c: StoredCustomer): string {
  return c.customerType === 'BUSINESS' ? 'CUSTOMER.KYB_' : 'CUSTOMER.KYC_'
}

/** UNVERIFIED or HOLD -> PENDING (with CUSTOMER.KYC_PENDING / KYB_PENDING), then a scheduled decision. */
export function beginReview(ctx: SandboxContext, c: StoredCustomer, via: string): StoredCustomer {
  const saved = saveCustomer(ctx, {...c, [statusKey(c)]: 'PENDING'})
  for (const o of ownersOf(ctx, c.id))
    ctx.db.put('beneficialOwners', o.id, {...o, kycStatus: 'PENDING', updatedAt: ctx.iso()})
  ctx.webhooks.emit(`${eventPrefix(c)}PENDING`, publicCustomer(saved))
  const outcome = outcomeFor(ctx, saved)
  ctx.log(`kyc: ${c.id} under review (${via}); sandbox outcome ${outcome}`)
  if (outcome !== 'MANUAL_REVIEW')
    ctx.scheduler.after(ctx.settings().decisionDelayMs, 'kyc.decide', {customerId: c.id, outcome})
  return saved
}

/** The scheduled decision. A customer no longer PENDING (deleted, or moved by a regulated PATCH) is left alone. */
export function decide(ctx: SandboxContext, customerId: string, outcome: Outcome): void {
  const c = ctx.db.get<StoredCustomer>('customers', customerId)
  if (!c || c.isDeleted || statusOf(c) !== 'PENDING' || outcome === 'MANUAL_REVIEW') return
  for (const o of ownersOf(ctx, c.id)) {
    const own = ownerOutcome(o)
    ctx.db.put('beneficialOwners', o.id, {
      ...o,
      kycStatus: own === 'MANUAL_REVIEW' ? 'PENDING' : own,
      updatedAt: ctx.iso(),
    })
  }
  const saved = saveCustomer(ctx, {...c, [statusKey(c)]: outcome})
  ctx.log(`kyc: ${c.id} ${outcome}`)
  // Spec 6 defines no HOLD event; a HOLD is visible by polling the customer.
  if (outcome !== 'HOLD') ctx.webhooks.emit(`${eventPrefix(c)}${outcome}`, publicCustomer(saved))
}

/** The KYC decision job: the outcome lands when its delay is over. */
export function registerKycJobs(ctx: SandboxContext): void {
  ctx.scheduler.on('kyc.decide', (p) => decide(ctx, p.customerId, p.outcome))
}

/** Skip-paperwork option: individuals with a terminal suffix resolve at creation (spec 4.2 rule 8). */
export function onCustomerCreated(ctx: SandboxContext, c: StoredCustomer): void {
  if (!ctx.settings().skipVerificationPaperwork || c.customerType !== 'INDIVIDUAL') return
  if (statusOf(c) !== 'UNVERIFIED' || !isTerminalSuffix(suffixOf(c))) return
  beginReview(ctx, c, 'created with skipVerificationPaperwork')
}
