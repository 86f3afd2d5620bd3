// Receivers for `svc webhooks certify`: one that does everything right, and buggy ones with one bug each.
import {generateKeyPairSync} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {verifyWebhookSignature} from '../../src/lib/webhook-signature.js'
import {SPEC_EVENTS} from '../../src/lib/webhook-certify/spec-events.js'
import {tempDir} from './temp-dirs.js'
import {startReceiver, type Answer, type Received, type TestReceiver} from './webhook-receiver.js'

export type ReceiverBug =
  | 'accepts bad signatures'
  | 'refuses a legitimate redelivery'
  | 'answers 403 without an Error body'
  | '500s on unknown types'
  | 'times out'
  | 'answers 202 and never calls back'

/** Where an asynchronous receiver approves a payment it answered 202 to: the sandbox, with its credentials. */
export interface CallBack {
  baseUrl: string
  tokenId: string
  clientSecret: string
}

const KNOWN = new Set(SPEC_EVENTS.map((e) => e.type))

/** A P-256 key pair on disk: certify signs with the private file, the receivers trust the public PEM. */
export function signingKeyPair(): {privateKeyFile: string; publicKeyPem: string} {
  const {privateKey, publicKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
  const privateKeyFile = join(tempDir('svc-certify-key-'), 'key.pem')
  writeFileSync(privateKeyFile, privateKey.export({type: 'pkcs8', format: 'pem'}) as string, {mode: 0o600})
  return {privateKeyFile, publicKeyPem: publicKey.export({type: 'spki', format: 'pem'}) as string}
}

/**
 * The reference receiver (no bug): verifies the signature (401), dedupes by event id (a duplicate is
 * answered 200 and not processed again), acknowledges unknown types, approves pending payments up to
 * $10,000 and rejects larger ones with an Error body (a bank-rail one is only acknowledged).
 */
export function startCertifyReceiver(
  publicKeyPem: string,
  bug?: ReceiverBug,
  callBack?: CallBack,
): Promise<TestReceiver> {
  const processed = new Set<string>()
  return startReceiver((r: Received): Answer => {
    if (bug !== 'accepts bad signatures' && !verifyWebhookSignature(r.body, header(r), publicKeyPem))
      return {status: 401, body: {code: 'INVALID_SIGNATURE', message: 'signature does not verify'}}
    if (processed.has(r.id)) {
      if (bug === 'refuses a legitimate redelivery')
        return {status: 401, body: {code: 'REPLAY', message: 'event already seen: replay attack?'}}
      return {status: 200}
    }
    processed.add(r.id)
    if (!KNOWN.has(r.type) && bug === '500s on unknown types') return {status: 500}
    if (r.type === 'OUTGOING_PAYMENT.COMPLETED' && bug === 'times out') return {status: 200, delayMs: 5_500}
    if (r.type === 'INCOMING_PAYMENT.PENDING') return decide(r, bug, callBack)
    return {status: 200}
  })
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
