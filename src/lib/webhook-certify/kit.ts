// What every certify case uses: seeded event ids, the signing keys, one HTTP delivery, the log of answers.
import {createECDH, createHash, createPrivateKey, sign, type KeyObject} from 'node:crypto'
import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import {io} from '../io.js'

/** The Service gives up on an attempt after this long (and retries later): a slower 2xx is flagged. */
export const SERVICE_TIMEOUT_MS = 5_000
/** How long certify itself waits for an answer, so a slow 2xx is still seen and measured. */
const TRANSPORT_DEADLINE_MS = 15_000

export interface Delivery {
  /** The receiver's HTTP status; null when it did not answer (refused, reset, too slow). */
  status: number | null
  body: string
  ms: number
  error?: string
}

export interface CertifyEvent {
  id: string
  type: string
  timestamp: string
  data: Record<string, unknown>
}

export interface CaseResult {
  name: string
  passed: boolean
  expected: string
  observed: string
}

export interface Kit {
  url: string
  /** A fresh event of `type` (new id, seeded), data as given. */
  event(type: string, data: Record<string, unknown>): CertifyEvent
  /** A fresh, seeded id of the object an event is about: `Customer:<uuid>`. */
  objectId(prefix: string): string
  /** POST raw bytes with these headers (content-type added); `dropAfterMs` hangs up like a Service that gave up. */
  post(body: string, headers: Record<string, string>, opts?: {dropAfterMs?: number}): Promise<Delivery>
  /** POST an event signed with the trusted key: what the Service sends. */
  send(event: CertifyEvent, opts?: {dropAfterMs?: number}): Promise<Delivery>
  signature(body: string, key?: KeyObject): string
  /** A P-256 key the receiver does not trust (derived from the seed). */
  wrongKey: KeyObject
  /** Every delivery made, for the cases judged over the whole run (timeliness). */
  log: Array<{event: string; type: string; delivery: Delivery}>
}

/** mulberry32: small, seedable, the same sequence for the same seed on every platform. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A P-256 private key whose scalar is SHA-256 of the seed: the same wrong key for the same seed. */
function keyFromSeed(seed: number): KeyObject {
  const d = createHash('sha256').update(`svc-certify-wrong-key:${seed}`).digest()
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(d)
  const pub = ecdh.getPublicKey()
  const b64 = (b: Buffer) => b.toString('base64url')
  return createPrivateKey({
    key: {kty: 'EC', crv: 'P-256', d: b64(d), x: b64(pub.subarray(1, 33)), y: b64(pub.subarray(33, 65))},
    format: 'jwk',
  })
}

export function makeKit(opts: {url: string; key: KeyObject; seed: number; startMs: number}): Kit {
  const random = prng(opts.seed)
  let n = 0
  const hex = (len: number) => Array.from({length: len}, () => Math.floor(random() * 16).toString(16)).join('')
  const uuid = () => `${hex(8)}-${hex(4)}-7${hex(3)}-8${hex(3)}-${hex(12)}`
  const log: Kit['log'] = []
  const kit: Kit = {
    url: opts.url,
    log,
    wrongKey: keyFromSeed(opts.seed),
    event(type, data) {
      return {id: `Webhook:${uuid()}`, type, timestamp: new Date(opts.startMs + 1000 * n++).toISOString(), data}
    },
    objectId: (prefix) => `${prefix}:${uuid()}`,
    signature: (body, key = opts.key) =>
      sign('sha256', Buffer.from(body), {key, dsaEncoding: 'der'}).toString('base64'),
    post: (body, headers, o) => postOnce(opts.url, body, headers, o?.dropAfterMs),
    async send(event, o) {
      const body = JSON.stringify(event)
      const delivery = await kit.post(body, {'x-service-signature': kit.signature(body)}, o)
      if (o?.dropAfterMs === undefined) log.push({event: event.id, type: event.type, delivery})
      return delivery
    },
  }
  return kit
}

function postOnce(url: string, body: string, headers: Record<string, string>, dropAfterMs?: number): Promise<Delivery> {
  // Timed on the command's clock (io.ts), as every wait of svc is: a test measures a slow receiver on a fake one.
  const {now} = io()
  const started = now()
  return new Promise((resolve) => {
    let settled = false
    const finish = (d: Omit<Delivery, 'ms'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({...d, ms: now() - started})
    }
    const u = new URL(url)
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
      u,
      {
        method: 'POST',
        headers: {'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(body))},
      },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text = (text + c.toString('utf8')).slice(0, 4096)))
        res.on('end', () => finish({status: res.statusCode ?? 0, body: text}))
        res.on('error', (e) => finish({status: res.statusCode ?? 0, body: text, error: e.message}))
      },
    )
    const limit = dropAfterMs ?? TRANSPORT_DEADLINE_MS
    const timer = setTimeout(() => {
      finish({status: null, body: '', error: `no answer within ${limit} ms`})
      req.destroy()
    }, limit)
    req.on('error', (e) => finish({status: null, body: '', error: e.message}))
    req.end(body)
  })
}

export const is2xx = (d: Delivery) => d.status !== null && d.status >= 200 && d.status < 300
export const is4xx = (d: Delivery) => d.status !== null && d.status >= 400 && d.status < 500
export const answered = (d: Delivery) => (d.status === null ? `no answer (${d.error})` : `HTTP ${d.status}`)
