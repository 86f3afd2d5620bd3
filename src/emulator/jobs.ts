import type {CardSimulator} from '../lib/schemas/cards.js'
import type {StoredCardTransaction} from './store/cards.js'

/** A kind's payload type, carried by the type alone: a declaration is one line. */
interface JobSpec<P> {
  readonly payload?: P
}
const job = <P extends Record<string, unknown>>(): JobSpec<P> => ({})

/**
 * Every kind of durable job (scheduler.ts) with its payload, one line each: `Scheduler.after` and
 * `Scheduler.on` take only these kinds with these payloads, and the composition root (emulator.ts)
 * refuses to start while a kind has no handler. Payloads are stored as JSON, so they hold plain data.
 */
export const JOB_KINDS = {
  'kyc.decide': job<{customerId: string; outcome: 'APPROVED' | 'REJECTED' | 'HOLD' | 'MANUAL_REVIEW'}>(),
  'quote.expire': job<{id: string}>(),
  'payment.settle': job<{id: string}>(),
  'payment.return': job<{id: string}>(),
  'incoming.decide': job<{id: string}>(),
  'incoming.refund': job<{id: string}>(),
  'externalAccount.validated': job<{id: string}>(),
  'ownership.liveness': job<{id: string; token: string; pass: boolean}>(),
  'bulk-import.chunk': job<{jobId: string; chunk: number}>(),
  'card.provisioned': job<{cardId: string; rejected: boolean}>(),
  'card.authorize': job<{cardId: string; kind: CardSimulator; auth: CardAuthorization; token: string}>(),
  'card.expire': job<{cardTransactionId: string}>(),
  'sca.challenge-expire': job<{quoteId: string; challengeId: string}>(),
  'sca.reset-liveness': job<{resetId: string}>(),
  'stablecoin.settle': job<{operationId: string}>(),
  'wallet.settle': job<{requestId: string}>(),
  'retention.prune': job<Record<string, never>>(),
}

export type JobKind = keyof typeof JOB_KINDS
export type JobPayload<K extends JobKind> = NonNullable<(typeof JOB_KINDS)[K]['payload']>

/** What a card authorization decided later (a slow issuer) needs of its request. */
export type CardAuthorization = {
  amount: number
  currency: {code: string}
  merchant: StoredCardTransaction['merchant']
}

export type JobHandler<K extends JobKind> = (payload: JobPayload<K>) => void | Promise<void>

export interface JobOptions<K extends JobKind> {
  /**
   * Runs in a unit of its own when the job has failed for good (MAX_FAILURES times for a reason of
   * its own): it leaves the job's object in the state the spec gives a failure (a payment FAILED with
   * its hold released), so nothing waits forever on a job that will never succeed.
   */
  giveUp?: JobHandler<K>
}

/** One job an advance ran (Scheduler.advance): when (virtual time) and how it ended. */
export interface JobRun {
  id: string
  kind: string
  at: number
  outcome: 'ran' | 'failed' | 'given-up'
}

/** A handler as the scheduler calls it, with the payload as stored. */
export type StoredHandler = (payload: Record<string, unknown>) => void | Promise<void>
