// The equivalence of --dry-run and the real request as a property of the one transport (issue 35): a
// command builds one ApiRequest and hands it to ApiClient.describe (dry run) or ApiClient.call (send),
// so for any request, what describe shows is what call puts on the wire: method, URL with its query,
// every header svc sets (credentials aside), and the body byte for byte (secret fields shown redacted,
// a multipart file by name, type and size). Seeded random requests; a failure names its seed and step.
// The per-command half (argv -> this request) is test/unit/docs/argv-request.test.ts.
import {MockAgent} from 'undici'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {unitClient, UNIT_ORIGIN} from '../../helpers/unit-client.js'
import type {ApiRequest, Method, Query} from '../../../src/lib/api/request.js'
import {redact} from '../../../src/lib/secret.js'
import {prng} from '../../helpers/prng.js'

const ORIGIN = UNIT_ORIGIN
const AUTH = new Set(['authorization'])

interface Wire {
  method: string
  path: string
  headers: Record<string, string>
  body: string | Buffer | undefined
}
let agent: MockAgent
let wire: Wire[]
beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  wire = []
  agent
    .get(ORIGIN)
    .intercept({method: () => true, path: () => true})
    .reply((opts) => {
      wire.push({
        method: opts.method,
        path: opts.path,
        headers: Object.fromEntries(
          Object.entries(opts.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)]),
        ),
        body: opts.body as string | Buffer | undefined,
      })
      return {statusCode: 200, data: '{}', responseOptions: {headers: {'content-type': 'application/json'}}}
    })
    .persist()
})
afterEach(() => agent.close())

/** A seeded generator of the requests commands build: every field of ApiRequest that reaches the wire. */
function requests(seed: number, n: number): ApiRequest[] {
  const r = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
  const word = () => pick(['a', 'Customer:019a', 'x y', 'ü/é', '50%', 'a+b', 'q?&=#', '🙂', ''])
  const value = (depth: number): unknown =>
    depth > 2 || r() < 0.5
      ? pick([word(), Math.floor(r() * 1e6), r() < 0.5, null, '12.50'])
      : r() < 0.3
        ? Array.from({length: Math.floor(r() * 3)}, () => value(depth + 1))
        : object(depth + 1)
  const object = (depth: number): Record<string, unknown> =>
    Object.fromEntries(
      Array.from({length: 1 + Math.floor(r() * 4)}, () => [
        pick(['name', 'amount', 'clientSecret', 'otp', 'privateKey', 'nested', 'tags', 'currency']),
        value(depth),
      ]),
    )
  return Array.from({length: n}, () => {
    const method = pick<Method>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    const query: Query | undefined =
      r() < 0.5
        ? {
            limit: Math.floor(r() * 100),
            cursor: r() < 0.5 ? word() : undefined,
            all: r() < 0.5,
            currency: r() < 0.5 ? ['USD', 'MXN'] : 'USD',
          }
        : undefined
    const withBody = method !== 'GET' && r() < 0.7
    const upload = method === 'POST' && !withBody && r() < 0.5
    return {
      method,
      path: [pick(['customers', 'quotes', 'sandbox']), word() || 'id', ...(r() < 0.5 ? ['execute'] : [])],
      ...(query ? {query} : {}),
      ...(withBody ? {body: object(0)} : {}),
      ...(upload
        ? {
            upload: {
              fields: {documentType: 'PASSPORT', side: r() < 0.5 ? 'FRONT' : undefined},
              file: {name: 'id.pdf', type: 'application/pdf', bytes: Buffer.from(`%PDF-1.4 ${word()}`)},
            },
          }
        : {}),
      ...(r() < 0.3 ? {headers: {'x-extra': word() || 'v'}} : {}),
      ...(method !== 'GET' && r() < 0.6 ? {idempotency: r() < 0.5 ? {} : {scope: 'execute'}} : {}),
    }
  })
}

describe('the transport describes exactly what it sends', () => {
  it.each([1, 2, 3, 4])('seed %i: 50 random requests, dry run == wire', async (seed) => {
    const client = unitClient(agent, {idempotencyKey: seed % 2 ? 'pinned-key' : undefined})
    let step = 0
    for (const req of requests(seed, 50)) {
      const at = `seed ${seed} step ${++step}`
      const shown = client.describe(req)
      expect(JSON.stringify(shown), at).not.toContain('sk_unit_secret')
      wire.length = 0
      await client.call(req)
      expect(wire.length, at).toBe(1)
      const sent = wire[0]
      const url = new URL(shown.url)
      expect(sent.method, at).toBe(shown.method)
      expect(sent.path, at).toBe(url.pathname + url.search)
      const headers = Object.fromEntries(
        Object.entries(sent.headers).filter(([k]) => !AUTH.has(k) && k !== 'content-length'),
      )
      const expected = Object.fromEntries(Object.entries(shown.headers).filter(([k]) => !AUTH.has(k)))
      if (req.upload) {
        expect(expected['content-type'], at).toBe('multipart/form-data')
        expected['content-type'] = headers['content-type']
        expect(headers['content-type'], at).toMatch(/^multipart\/form-data; boundary=/)
        const text = Buffer.from(sent.body as Buffer).toString('latin1')
        for (const [k, v] of Object.entries(shown.body as Record<string, string>))
          expect(text, at).toContain(k === 'file' ? `filename="id.pdf"` : `name="${k}"\r\n\r\n${v}`)
      } else if (req.body === undefined) {
        expect(sent.body ?? '', at).toBe('')
        expect(shown.body, at).toBeUndefined()
      } else {
        // Byte for byte once redacted: the dry run never shows a secret field's value.
        expect(JSON.stringify(redact(JSON.parse(String(sent.body)))), at).toBe(JSON.stringify(shown.body))
      }
      expect(headers, at).toEqual(expected)
      // Its authorization is the credential the dry run hides.
      expect(sent.headers.authorization, at).toMatch(/^Basic /)
      expect(shown.headers.authorization ?? '[REDACTED]', at).toMatch(/REDACTED/)
    }
  })
})
