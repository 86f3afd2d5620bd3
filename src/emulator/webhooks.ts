import {createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import {join} from 'node:path'
import {writePrivateFileAtomic} from '../lib/fs-safe.js'
import type {Emulator} from './emulator.js'

export interface WebhookEvent {
  id: string
  type: string
  timestamp: string
  data?: unknown
}

interface StoredEvent {
  seq: number
  event: WebhookEvent
  deliveries: Array<{at: string; url: string; status?: number; error?: string; replay?: boolean}>
  delivered: boolean
}

const MAX_ATTEMPTS = 12

/** Loads (or creates once) the sandbox's P-256 webhook signing key, kept 0600 in the data dir. */
export function loadWebhookKey(dataDir: string): {privateKey: KeyObject; publicKeyPem: string} {
  const path = join(dataDir, 'webhook-key.pem')
  if (!existsSync(path)) {
    const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
    writePrivateFileAtomic(path, privateKey.export({type: 'pkcs8', format: 'pem'}) as string)
  }
  const privateKey = createPrivateKey(readFileSync(path, 'utf8'))
  const publicKeyPem = createPublicKey(privateKey).export({type: 'spki', format: 'pem'}) as string
  return {privateKey, publicKeyPem}
}

/** base64 DER ECDSA P-256 over SHA-256 of the exact body bytes (header X-Service-Signature). */
export function signBody(body: string, key: KeyObject): string {
  return sign('sha256', Buffer.from(body), {key, dsaEncoding: 'der'}).toString('base64')
}

/**
 * Emits events in the envelope of spec 6, stores them (GET /sandbox/events lists them), and
 * delivers them signed to the configured endpoint in emission order, retrying failures with
 * exponential backoff through the durable scheduler.
 */
export class Webhooks {
  private seq: number
  private queue: Promise<void> = Promise.resolve()

  constructor(private readonly emu: Emulator, private readonly key: KeyObject) {
    this.seq = Math.max(0, ...emu.db.all<StoredEvent>('events').map((e) => e.seq))
    emu.scheduler.on('webhook.deliver', (p) => this.enqueue(String(p.eventId), Number(p.attempt)))
  }

  emit(type: string, data?: unknown): WebhookEvent {
    const event: WebhookEvent = {id: `Webhook:${randomUUID()}`, type, timestamp: new Date(this.emu.now()).toISOString(), ...(data === undefined ? {} : {data})}
    const stored: StoredEvent = {seq: ++this.seq, event, deliveries: [], delivered: false}
    this.emu.db.put('events', event.id, stored)
    this.emu.log(`webhook ${type} ${event.id}`)
    if (this.emu.config().webhookEndpoint) this.enqueue(event.id, 0)
    return event
  }

  list(): WebhookEvent[] {
    return this.emu.db
      .all<StoredEvent>('events')
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.event)
  }

  /** Sends one event now and reports what the endpoint answered (POST /sandbox/webhooks/test). */
  async deliverNow(event: WebhookEvent, url: string): Promise<{status: number; body: string}> {
    const body = JSON.stringify(event)
    return post(url, body, {'content-type': 'application/json', 'x-service-signature': signBody(body, this.key)})
  }

  /**
   * Re-delivers a stored event now, to `url` or the configured endpoint: the identical body (the
   * stored envelope, serialised as on its first delivery), freshly signed. Recorded as a delivery.
   */
  async replay(eventId: string, url: string): Promise<{event: WebhookEvent; status?: number; body?: string; error?: string}> {
    const stored = this.emu.db.get<StoredEvent>('events', eventId)
    if (!stored) throw Object.assign(new Error(`${eventId} not found`), {notFound: true})
    let result: {status?: number; body?: string; error?: string}
    try {
      result = await this.deliverNow(stored.event, url)
    } catch (e) {
      result = {error: (e as Error).message}
    }
    const latest = this.emu.db.get<StoredEvent>('events', eventId) ?? stored
    this.emu.db.put('events', eventId, {...latest, deliveries: [...latest.deliveries, {at: new Date(this.emu.now()).toISOString(), url, status: result.status, error: result.error, replay: true}]})
    this.emu.log(`webhook replay ${stored.event.type} ${eventId} -> ${url}: ${result.status ?? result.error}`)
    return {event: stored.event, ...result}
  }

  private enqueue(eventId: string, attempt: number): void {
    this.queue = this.queue.then(() => this.attempt(eventId, attempt)).catch((e) => this.emu.log(`webhook delivery error: ${String(e)}`))
  }

  /** Waits until every queued delivery has been tried once (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue
  }

  private async attempt(eventId: string, attempt: number): Promise<void> {
    const stored = this.emu.db.get<StoredEvent>('events', eventId)
    const url = this.emu.config().webhookEndpoint
    if (!stored || stored.delivered || !url) return
    let status: number | undefined
    let error: string | undefined
    try {
      status = (await this.deliverNow(stored.event, url)).status
    } catch (e) {
      error = (e as Error).message
    }
    const ok = status !== undefined && ((status >= 200 && status < 300) || status === 409)
    const next: StoredEvent = {...stored, delivered: ok, deliveries: [...stored.deliveries, {at: new Date(this.emu.now()).toISOString(), url, status, error}]}
    this.emu.db.put('events', eventId, next)
    if (!ok && stored.event.type !== 'TEST' && attempt + 1 < MAX_ATTEMPTS) {
      const delay = Math.min(30 * 60_000, this.emu.settings().webhookRetryBaseMs * 2 ** attempt)
      this.emu.scheduler.after(delay, 'webhook.deliver', {eventId, attempt: attempt + 1})
    }
  }
}

function post(url: string, body: string, headers: Record<string, string>): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, {method: 'POST', headers: {...headers, 'content-length': String(Buffer.byteLength(body))}, timeout: 5000}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000)}))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('timed out after 5s')))
    req.on('error', reject)
    req.end(body)
  })
}
