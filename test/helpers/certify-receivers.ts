// Receivers for `svc webhooks certify`: one that does everything right, and buggy ones with one bug each.
import {generateKeyPairSync} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {verifyWebhookSignature} from '../../src/lib/webhook-signature.js'
import {SPEC_EVENTS} from '../../src/lib/webhook-certify/spec-events.js'
import {REPO_ROOT} from './contract.js'
import {tempDir} from './temp-dirs.js'
import {startReceiver, type Answer, type Received, type TestReceiver} from './webhook-receiver.js'

export type ReceiverBug =
  | 'accepts bad signatures'
  | 'refuses a legitimate redelivery'
  | 'answers 403 without an Error body'
  | '500s on unknown types'
  | 'times out'
  | 'answers 202 and never calls back'
  | 'processes duplicates twice'
  | 'regresses on out-of-order events'

/** How long the receiver that times out takes to answer: past the Service's 5 s. */
const SLOW_ANSWER_MS = 5_500

/** Where an asynchronous receiver approves a payment it answered 202 to: the sandbox, with its credentials. */
export interface CallBack {
  baseUrl: string
  tokenId: string
  clientSecret: string
}

/** The contract's webhook types (openapi.yaml WebhookType): what a receiver written against it knows. */
const KNOWN = new Set([...SPEC_EVENTS.map((e) => e.type), ...contractWebhookTypes()])

function contractWebhookTypes(): string[] {
  const yaml = readFileSync(resolve(REPO_ROOT, '../shared/spec/openapi.yaml'), 'utf8')
  const block = /\n {4}WebhookType:\n {6}type: string\n {6}enum:\n((?: {8}- .+\n)+)/.exec(yaml)
  if (!block) throw new Error('openapi.yaml has no WebhookType enum')
  return block[1]
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^ {8}- /, '').trim())
}

/** A P-256 key pair on disk: certify signs with the private file, the receivers trust the public PEM. */
export function signingKeyPair(): {privateKeyFile: string; publicKeyPem: string} {
  const {privateKey, publicKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
  const privateKeyFile = join(tempDir('svc-certify-key-'), 'key.pem')
  writeFileSync(privateKeyFile, privateKey.export({type: 'pkcs8', format: 'pem'}) as string, {mode: 0o600})
  return {privateKeyFile, publicKeyPem: publicKey.export({type: 'spki', format: 'pem'}) as string}
}

/**
 * The reference receiver (no bug): verifies the signature (401), dedupes by event id (a duplicate is
 * answered 200 and not processed again), acknowledges unknown types, keeps each payment's and
 * customer's latest state (a PENDING never overwrites a decided one), acknowledges a late PENDING of
 * a payment it knows decided, rejects payments to customers it knows are not APPROVED, approves
 * pending payments up to $10,000 and rejects larger ones with an Error body (a bank-rail one is
 * only acknowledged).
 */
export function startCertifyReceiver(
  publicKeyPem: string,
  bug?: ReceiverBug,
  callBack?: CallBack,
  /** The clock a slow answer waits on (test/helpers/fake-time.ts, shared with the certify run); real time by default. */
  clock?: {sleep(ms: number): Promise<void>},
): Promise<TestReceiver> {
  const processed = new Set<string>()
  const state = new Map<string, string>()
  return startReceiver((r: Received): Answer | Promise<Answer> => {
    if (bug !== 'accepts bad signatures' && !verifyWebhookSignature(r.body, header(r), publicKeyPem))
      return {status: 401, body: {code: 'INVALID_SIGNATURE', message: 'signature does not verify'}}
    if (processed.has(r.id) && bug !== 'processes duplicates twice') {
      if (bug === 'refuses a legitimate redelivery')
        return {status: 401, body: {code: 'REPLAY', message: 'event already seen: replay attack?'}}
      return {status: 200}
    }
    processed.add(r.id)
    if (!KNOWN.has(r.type) && bug === '500s on unknown types') return {status: 500}
    if (r.type === 'OUTGOING_PAYMENT.COMPLETED' && bug === 'times out')
      return clock ? clock.sleep(SLOW_ANSWER_MS).then(() => ({status: 200})) : {status: 200, delayMs: SLOW_ANSWER_MS}
    const data = (JSON.parse(r.body) as {data?: Record<string, unknown>}).data ?? {}
    const now = statusOf(r.type, data)
    if (typeof data.id === 'string' && now) {
      const before = state.get(data.id)
      if (!before || now !== 'PENDING' || before === 'PENDING' || bug === 'regresses on out-of-order events')
        state.set(data.id, now)
    }
    if (r.type !== 'INCOMING_PAYMENT.PENDING') return {status: 200}
    if (state.get(String(data.id)) !== 'PENDING') return {status: 200} // decided already: a late copy
    const customer = state.get(String(data.customerId))
    if (customer && customer !== 'APPROVED')
      return {status: 403, body: {code: 'CUSTOMER_NOT_VERIFIED', message: `the customer is ${customer}`}}
    return decide(r, bug, callBack)
  })
}

/** The state an event tells of its object: a payment's status, a customer's KYC/KYB status. */
function statusOf(type: string, data: Record<string, unknown>): string | undefined {
  if (type.startsWith('CUSTOMER.')) return String(data.kycStatus ?? data.kybStatus ?? '') || undefined
  if (type.startsWith('INCOMING_PAYMENT.')) return typeof data.status === 'string' ? data.status : undefined
  return undefined
}

const header = (r: Received) => {
  const h = r.headers['x-service-signature']
  return Array.isArray(h) ? h[0] : h
}

function decide(r: Received, bug?: ReceiverBug, callBack?: CallBack): Answer {
  const {data} = JSON.parse(r.body) as {
    data: {id: string; senderUmaAddress?: string; source?: {sourceType?: string}; receivedAmount?: {amount?: number}}
  }
  const overUma = Boolean(data.senderUmaAddress) || data.source?.sourceType === 'UMA_ADDRESS'
  if (!overUma) return {status: 200} // a bank-rail wire: nothing to decide
  if ((data.receivedAmount?.amount ?? 0) <= 1_000_000) {
    if (!callBack) return {status: 200}
    // The asynchronous path: 202 now, the approval through the API shortly after.
    if (bug !== 'answers 202 and never calls back') setTimeout(() => void approve(callBack, data.id), 200)
    return {status: 202}
  }
  if (bug === 'answers 403 without an Error body') return {status: 403}
  return {
    status: 403,
    body: {status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', message: 'over the $10,000 limit', reason: 'LIMIT'},
  }
}

async function approve(c: CallBack, transactionId: string): Promise<void> {
  await fetch(`${c.baseUrl}/transactions/${encodeURIComponent(transactionId)}/approve`, {
    method: 'POST',
    headers: {
      authorization: 'Basic ' + Buffer.from(`${c.tokenId}:${c.clientSecret}`).toString('base64'),
      'content-type': 'application/json',
    },
    body: '{}',
  }).catch(() => undefined) // an approval of an id the sandbox does not hold is only a 404
}
