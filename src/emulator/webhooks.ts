import {createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {writePrivateFileAtomic} from '../lib/fs-safe.js'
import type {PlatformConfig, SandboxSettings} from './settings.js'
import type {Db} from './store/db.js'
import {DataFileError} from './data-files.js'
import {eventsOfType, maxEventSeq, oldestPendingEvent, type StoredEvent, type WebhookEvent} from './store/events.js'

export type {StoredEvent, WebhookEvent}

const MAX_ATTEMPTS = 12

/** What the outbox needs of the sandbox: a narrow slice, so it sits below the request context. */
export interface OutboxHost {
  readonly db: Db
  now(): number
  iso(ms?: number): string
  /** Whether time passes by itself: a retry due later is left to an advance when the clock is frozen. */
  readonly clock: {ticking(): boolean}
  config(): PlatformConfig
  settings(): SandboxSettings
  log(line: string): void
}

/** Loads (or creates once) the sandbox's P-256 webhook signing key, kept 0600 in the data dir. */
export function loadWebhookKey(dataDir: string): {privateKey: KeyObject; publicKeyPem: string} {
  const path = join(dataDir, 'webhook-key.pem')
  if (!existsSync(path)) {
    const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
    writePrivateFileAtomic(path, privateKey.export({type: 'pkcs8', format: 'pem'}) as string)
  }
  const recovery =
    'Restore it from a backup, or delete it to have a new key made (webhook receivers must then trust the new public key).'
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new DataFileError(path, 'is not a PEM private key', recovery, e)
  }
  // Every delivery is signed ECDSA P-256 (X-Service-Signature): another key would fail each one later, so it is refused now.
  const curve = privateKey.asymmetricKeyDetails?.namedCurve
  if (privateKey.asymmetricKeyType !== 'ec' || curve !== 'prime256v1') {
    throw new DataFileError(
      path,
      `holds a${privateKey.asymmetricKeyType === 'ec' ? `n EC ${curve}` : ` ${privateKey.asymmetricKeyType}`} key, not the ECDSA P-256 key webhooks are signed with`,
      recovery,
    )
  }
  const publicKeyPem = createPublicKey(privateKey).export({type: 'spki', format: 'pem'}) as string
  return {privateKey, publicKeyPem}
}

/** base64 DER ECDSA P-256 over SHA-256 of the exact body bytes (header X-Service-Signature). */
export function signBody(body: string, key: KeyObject): string {
  return sign('sha256', Buffer.from(body), {key, dsaEncoding: 'der'}).toString('base64')
}

/**
 * A durable webhook outbox. An event is a row of the events table written in the same unit as the
 * state change that causes it, so it exists exactly when that change does; it is addressed to the
 * endpoint configured at that moment. One deliverer sends the events pending for the configured
 * endpoint strictly in `seq` order: a failing event holds back
 * the ones after it, retried with exponential backoff, until it succeeds or runs out of attempts
 * and is marked dead (GET /sandbox/events shows each event's attempts). Delivery is at least once:
 * an event is marked delivered only after the endpoint answered, and pending events resume after
 * a restart, kill -9 included. Only committed events are sent.
 */
export class Webhooks {
  private seq: number
  private committedSeq: number
  private pumping = false
  private again = false
  private stopped = false
  private timer?: NodeJS.Timeout
  private idleWaiters: Array<() => void> = []

  constructor(
    private readonly host: OutboxHost,
    private readonly key: KeyObject,
  ) {
    this.seq = maxEventSeq(host.db)
    this.committedSeq = this.seq
    host.db.onCommit(() => {
      this.committedSeq = this.seq
      this.kick()
    })
  }

  /** Starts delivering what is pending (called once the emulator is up). */
  start(): void {
    this.kick()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  /** Records an event in the current unit; it is delivered once that unit commits. */
  emit(type: string, data?: unknown): WebhookEvent {
    const event: WebhookEvent = {
      id: `Webhook:${randomUUID()}`,
      type,
      timestamp: this.host.iso(),
      ...(data === undefined ? {} : {data}),
    }
    const endpoint = this.host.config().webhookEndpoint
    const stored: StoredEvent = {
      seq: ++this.seq,
      event,
      delivery: endpoint ? 'pending' : 'none',
      ...(endpoint ? {endpoint} : {}),
      attempts: [],
    }
    this.host.db.put('events', event.id, stored)
    this.host.log(`webhook ${type} ${event.id}`)
    // Outside a unit the write has committed on its own already.
    if (!this.host.db.inUnit) {
      this.committedSeq = this.seq
      this.kick()
    }
    return event
  }

  list(type?: string): WebhookEvent[] {
    return this.stored(type).map((e) => e.event)
  }

  /** Events with their delivery state and attempts, in emission order. */
  stored(type?: string): StoredEvent[] {
    return eventsOfType(this.host.db, type)
  }

  /** Sends one event now and reports what the endpoint answered (POST /sandbox/webhooks/test). */
  async deliverNow(event: WebhookEvent, url: string): Promise<{status: number; body: string}> {
    const body = JSON.stringify(event)
    return post(url, body, {'content-type': 'application/json', 'x-service-signature': signBody(body, this.key)})
  }

  /**
   * Re-delivers a stored event now, to `url` or the configured endpoint: the identical body (the
   * stored envelope, serialised as on its first delivery), freshly signed. Recorded among the
   * event's attempts as a replay (replays do not count against its delivery attempts).
   */
  async replay(
    eventId: string,
    url: string,
  ): Promise<{event: WebhookEvent; status?: number; body?: string; error?: string}> {
    const stored = this.host.db.get<StoredEvent>('events', eventId)
    if (!stored) throw Object.assign(new Error(`${eventId} not found`), {notFound: true})
    let result: {status?: number; body?: string; error?: string}
    try {
      result = await this.deliverNow(stored.event, url)
    } catch (e) {
      result = {error: (e as Error).message}
    }
    await this.host.db.unit(() => {
      const latest = this.host.db.get<StoredEvent>('events', eventId) ?? stored
      const attempt = {
        at: this.host.iso(),
        url,
        ...(result.status !== undefined ? {status: result.status} : {}),
        ...(result.error ? {error: result.error} : {}),
        replay: true,
      }
      this.host.db.put('events', eventId, {...latest, attempts: [...(latest.attempts ?? []), attempt]})
    })
    this.host.log(`webhook replay ${stored.event.type} ${eventId} -> ${url}: ${result.status ?? result.error}`)
    return {event: stored.event, ...result}
  }

  /** Resolves when nothing is due for delivery right now (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.pumping && !this.dueNow()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** The number of the last event recorded (events after it are new). */
  lastSeq(): number {
    return this.seq
  }

  /** When the next delivery attempt is due (sandbox clock), if an event is waiting for one. */
  nextAttemptAt(): number | undefined {
    const url = this.host.config().webhookEndpoint
    const next = url ? oldestPendingEvent(this.host.db, url) : undefined
    if (!next || next.seq > this.committedSeq || this.stopped) return undefined
    return next.nextAttemptAt ?? this.host.now()
  }

  /** Looks again for what is due (the clock moved). */
  wake(): void {
    this.kick()
  }

  private dueNow(): boolean {
    const url = this.host.config().webhookEndpoint
    const next = url ? oldestPendingEvent(this.host.db, url) : undefined
    return Boolean(next && next.seq <= this.committedSeq && (next.nextAttemptAt ?? 0) <= this.host.now())
  }

  private kick(): void {
    if (this.stopped) return
    if (this.pumping) {
      this.again = true
      return
    }
    void this.pump()
  }

  private async pump(): Promise<void> {
    this.pumping = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    try {
      do {
        this.again = false
        for (;;) {
          if (this.stopped) return
          const url = this.host.config().webhookEndpoint
          const next = url ? oldestPendingEvent(this.host.db, url) : undefined
          if (!next || !url || next.seq > this.committedSeq) break
          const wait = (next.nextAttemptAt ?? 0) - this.host.now()
          if (wait > 0) {
            if (this.host.clock.ticking()) {
              this.timer = setTimeout(() => this.kick(), wait)
              this.timer.unref?.()
            }
            break
          }
          await this.attempt(next, url)
        }
      } while (this.again)
    } catch (e) {
      this.host.log(`webhook delivery error: ${(e as Error).stack ?? String(e)}`)
    } finally {
      this.pumping = false
      if (!this.dueNow()) for (const w of this.idleWaiters.splice(0)) w()
    }
  }

  private async attempt(stored: StoredEvent, url: string): Promise<void> {
    let status: number | undefined
    let error: string | undefined
    try {
      status = (await this.deliverNow(stored.event, url)).status
    } catch (e) {
      error = (e as Error).message
    }
    if (this.stopped) return
    const ok = status !== undefined && ((status >= 200 && status < 300) || status === 409)
    await this.host.db.unit(() => {
      const current = this.host.db.get<StoredEvent>('events', stored.event.id)
      if (!current || current.delivery !== 'pending') return
      const attempts = [
        ...current.attempts,
        {at: this.host.iso(), url, ...(status !== undefined ? {status} : {}), ...(error ? {error} : {})},
      ]
      const tries = attempts.filter((a) => !a.replay).length
      const exhausted = current.event.type === 'TEST' || tries >= MAX_ATTEMPTS
      const delay = Math.min(30 * 60_000, this.host.settings().webhookRetryBaseMs * 2 ** (tries - 1))
      const next: StoredEvent = ok
        ? {...current, attempts, delivery: 'delivered', nextAttemptAt: undefined}
        : exhausted
          ? {...current, attempts, delivery: 'dead', nextAttemptAt: undefined}
          : {...current, attempts, nextAttemptAt: this.host.now() + delay}
      this.host.db.put('events', current.event.id, next)
      if (next.delivery === 'dead')
        this.host.log(`webhook ${current.event.id} is dead after ${attempts.length} attempt(s)`)
    })
  }
}

/** One delivery attempt may take this long in all: connecting, sending and the whole answer. */
export const DELIVERY_DEADLINE_MS = 5_000
/** What is kept of a receiver's answer; the rest is never read (the socket is destroyed). */
export const MAX_ANSWER_BYTES = 4 * 1024

/**
 * POSTs one event. A receiver cannot hold the outbox past DELIVERY_DEADLINE_MS however slowly it
 * trickles, nor make the sandbox read more than MAX_ANSWER_BYTES of its answer.
 */
function post(url: string, body: string, headers: Record<string, string>): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const u = new URL(url)
    let settled = false
    const finish = (err: Error | undefined, value?: {status: number; body: string}) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      if (err) reject(err)
      else resolve(value!)
    }
    const req = (u.protocol === 'https:' ? httpsRequestOf() : httpRequest)(
      u,
      {method: 'POST', headers: {...headers, 'content-length': String(Buffer.byteLength(body))}},
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        const done = () => {
          finish(undefined, {status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000)})
          if (!res.complete) req.destroy()
        }
        res.on('data', (c: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(c.subarray(0, MAX_ANSWER_BYTES - size))
          size += c.length
          // The status is known and enough of the answer is kept: stop reading.
          if (size >= MAX_ANSWER_BYTES) done()
        })
        res.on('end', done)
        res.on('error', (e) => finish(e))
      },
    )
    const deadline = setTimeout(() => {
      const e = new Error(`timed out after ${DELIVERY_DEADLINE_MS / 1000}s`)
      finish(e)
      req.destroy(e)
    }, DELIVERY_DEADLINE_MS)
    deadline.unref?.()
    req.on('error', (e) => finish(e))
    req.end(body)
  })
}

/** node:https (and TLS under it) only once a webhook goes to an https URL: not at every sandbox start. */
function httpsRequestOf(): typeof import('node:https').request {
  return (createRequire(import.meta.url)('node:https') as typeof import('node:https')).request
}
