import {MockAgent} from 'undici'
import {z} from 'zod'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {unitClient, UNIT_BASE, UNIT_ORIGIN} from '../../helpers/unit-client.js'
import {ApiError, SvcError} from '../../../src/lib/errors.js'
import {ExitCode} from '../../../src/lib/exit-codes.js'

const ORIGIN = UNIT_ORIGIN
const BASE = UNIT_BASE

let agent: MockAgent
let sleeps: number[]
let seen: Array<{method: string; path: string; headers: Record<string, string>}>

function client(extra: Parameters<typeof unitClient>[1] = {}) {
  return unitClient(agent, {
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...extra,
  })
}

/** Queues answers for one route and records each request's headers. */
function answer(
  method: string,
  path: string,
  replies: Array<{status: number; body?: unknown; headers?: Record<string, string>; raw?: string}>,
) {
  const pool = agent.get(ORIGIN)
  for (const r of replies) {
    pool.intercept({method, path: `/2025-10-13${path}`}).reply((opts) => {
      seen.push({
        method: opts.method,
        path: opts.path,
        headers: Object.fromEntries(
          Object.entries(opts.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)]),
        ),
      })
      return {
        statusCode: r.status,
        data: r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body)),
        responseOptions: {headers: {'content-type': 'application/json', ...r.headers}},
      }
    })
  }
}

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  sleeps = []
  seen = []
})
afterEach(async () => agent.close())

describe('ApiClient retries and idempotency', () => {
  it('sends Basic auth, JSON, and encodes each path segment', async () => {
    answer('GET', '/customers/Customer%3A1%2Fx', [{status: 200, body: {id: 'Customer:1/x'}}])
    const res = await client().request({method: 'GET', path: ['customers', 'Customer:1/x']})
    expect(res.body).toEqual({id: 'Customer:1/x'})
    expect(seen[0].headers.authorization).toBe('Basic ' + Buffer.from('tok_1:sk_unit_secret').toString('base64'))
    expect(seen[0].headers.accept).toBe('application/json')
  })

  it('retries a POST with an Idempotency-Key on 503/502, with the same key and body every time', async () => {
    answer('POST', '/quotes/Quote%3A1/execute', [
      {status: 503, body: {code: 'UNAVAILABLE'}},
      {status: 502},
      {status: 201, body: {id: 'Transaction:1'}},
    ])
    const res = await client().request({
      method: 'POST',
      path: ['quotes', 'Quote:1', 'execute'],
      body: {a: 1},
      idempotencyKey: 'key-123',
    })
    expect(res.status).toBe(201)
    expect(seen).toHaveLength(3)
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['key-123', 'key-123', 'key-123'])
    expect(sleeps).toHaveLength(2)
    expect(sleeps[1]).toBeGreaterThan(sleeps[0]) // exponential backoff
  })

  it('honours Retry-After on 429 (seconds)', async () => {
    answer('GET', '/customers', [
      {status: 429, body: {code: 'RATE_LIMITED'}, headers: {'retry-after': '2'}},
      {status: 200, body: {data: []}},
    ])
    const res = await client().request({method: 'GET', path: ['customers']})
    expect(res.status).toBe(200)
    expect(sleeps).toEqual([2000])
  })

  it('gives up after the retry budget with exit 7 for a 429', async () => {
    answer(
      'GET',
      '/customers',
      Array.from({length: 4}, () => ({status: 429, body: {code: 'RATE_LIMITED', reason: 'slow down'}})),
    )
    const err = await client()
      .request({method: 'GET', path: ['customers']})
      .catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.exitCode).toBe(ExitCode.RATE_LIMITED)
    expect(seen).toHaveLength(4)
  })

  it('never retries DAILY_VOLUME_LIMIT_EXCEEDED, even with a key', async () => {
    answer('POST', '/quotes', [
      {status: 429, body: {code: 'DAILY_VOLUME_LIMIT_EXCEEDED', reason: 'limit'}, headers: {'retry-after': '1'}},
    ])
    const err = await client()
      .request({method: 'POST', path: ['quotes'], body: {}, idempotencyKey: 'k'})
      .catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('DAILY_VOLUME_LIMIT_EXCEEDED')
    expect(seen).toHaveLength(1)
    expect(sleeps).toEqual([])
  })

  it('never retries a POST without an Idempotency-Key', async () => {
    answer('POST', '/customers', [{status: 503, body: {code: 'UNAVAILABLE'}}])
    const err = await client()
      .request({method: 'POST', path: ['customers'], body: {customerType: 'INDIVIDUAL'}})
      .catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(503)
    expect(seen).toHaveLength(1)
    expect(seen[0].headers['idempotency-key']).toBeUndefined()
  })

  it('retries a GET after a network error, then succeeds', async () => {
    const pool = agent.get(ORIGIN)
    pool
      .intercept({method: 'GET', path: '/2025-10-13/config'})
      .replyWithError(Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'}))
    answer('GET', '/config', [{status: 200, body: {id: 'PlatformConfig:1'}}])
    const res = await client().request({method: 'GET', path: ['config']})
    expect(res.body).toEqual({id: 'PlatformConfig:1'})
    expect(sleeps).toHaveLength(1)
  })

  it('parses error bodies, accepting message as an alias of reason', async () => {
    answer('GET', '/customers/Customer%3A9', [
      {status: 404, body: {code: 'CUSTOMER_NOT_FOUND', message: 'no such customer'}},
    ])
    const err = await client()
      .request({method: 'GET', path: ['customers', 'Customer:9']})
      .catch((e) => e)
    expect(err).toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      message: 'no such customer',
      status: 404,
      exitCode: ExitCode.NOT_FOUND,
    })
    expect(err.hint).toBeTruthy()
  })

  it('an unparseable JSON answer is a clear error, not a crash', async () => {
    answer('GET', '/config', [{status: 200, raw: '{"id": "Platf'}])
    const err = await client()
      .request({method: 'GET', path: ['config']})
      .catch((e) => e)
    expect(err).toBeInstanceOf(SvcError)
    expect(err.code).toBe('RESPONSE_INVALID')
    expect(err.message).toMatch(/invalid JSON/)
    expect(err.exitCode).toBe(ExitCode.FAILED)
  })

  it('a body that does not match the schema is a clear error naming the field', () => {
    const schema = z.looseObject({id: z.string(), totalCount: z.number()})
    const err = (() => {
      try {
        client().parse(schema, {id: 'x', totalCount: 'many'}, 'customer list')
      } catch (e) {
        return e as SvcError
      }
    })()
    expect(err?.code).toBe('RESPONSE_INVALID')
    expect(err?.message).toMatch(/customer list.*totalCount/)
  })

  it('redacts the Authorization header and secret fields in --debug traces', async () => {
    const lines: string[] = []
    answer('POST', '/auth/credentials', [{status: 200, body: {id: 'x', clientSecret: 'returned-secret'}}])
    await client({trace: (l) => lines.push(l)}).request({
      method: 'POST',
      path: ['auth', 'credentials'],
      body: {password: 'hunter2'},
      idempotencyKey: 'k',
    })
    const text = lines.join('\n')
    expect(text).toContain('authorization: [REDACTED]')
    expect(text).not.toContain('sk_unit_secret')
    expect(text).not.toContain(Buffer.from('tok_1:sk_unit_secret').toString('base64'))
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('returned-secret')
  })

  it('--timeout bounds retries: no retry starts past the deadline, the last answer is the error', async () => {
    answer('GET', '/customers', [
      {status: 503, body: {code: 'SERVICE_UNAVAILABLE', reason: 'down'}},
      {status: 503, body: {code: 'SERVICE_UNAVAILABLE', reason: 'down'}},
    ])
    let now = 1_000
    const c = client({
      deadline: 1_400,
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms)
        now += ms
      },
    })
    await expect(c.request({method: 'GET', path: ['customers']})).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
    })
    // The first backoff (188 ms with jitter) fits before the deadline; the next (375 ms) would not: 2 requests, 1 sleep.
    expect(seen).toHaveLength(2)
    expect(sleeps).toEqual([188])
  })

  it('a Retry-After longer than what is left of --timeout is not waited for', async () => {
    answer('GET', '/customers', [
      {status: 429, body: {code: 'RATE_LIMITED', reason: 'slow down'}, headers: {'retry-after': '30'}},
    ])
    const c = client({deadline: Date.now() + 5_000})
    await expect(c.request({method: 'GET', path: ['customers']})).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      exitCode: 7,
    })
    expect(sleeps).toEqual([])
    expect(seen).toHaveLength(1)
  })
})

describe('A request is data: ApiClient.describe shows what ApiClient.call sends', () => {
  const issue = {
    method: 'POST' as const,
    path: ['cards'],
    query: {expand: 'limits'},
    body: {cardholderId: 'Customer:1', password: 'hunter2'},
    idempotency: {},
  }

  it('a pinned --idempotency-key is sent as is on every retry, and the description shows the same key and headers, credentials redacted', async () => {
    answer('POST', '/cards?expand=limits', [{status: 503}, {status: 201, body: {id: 'Card:1'}}])
    const c = client({idempotencyKey: 'ci-run-42'})
    const shown = c.describe(issue)
    expect(await c.call(issue)).toEqual({id: 'Card:1'})
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['ci-run-42', 'ci-run-42'])
    expect(shown).toEqual({
      method: 'POST',
      url: `${BASE}/cards?expand=limits`,
      headers: {
        accept: 'application/json',
        'user-agent': 'svc-test',
        'content-type': 'application/json',
        'idempotency-key': 'ci-run-42',
        authorization: 'Basic [REDACTED]',
      },
      body: {cardholderId: 'Customer:1', password: '[REDACTED]'},
    })
    const {authorization: _a, ...sent} = seen[0].headers
    const {authorization: _b, ...described} = shown.headers
    expect(Object.fromEntries(Object.entries(sent).filter(([k]) => k in described))).toEqual(described)
    expect(
      Object.keys(sent)
        .filter((k) => !(k in described))
        .sort(),
    ).toEqual(['content-length', 'host'].filter((k) => k in sent))
  })

  it('mints one key per client (a fresh UUID), scoped per request; no credentials, no authorization header shown', () => {
    const c = client({tokenId: undefined, secret: undefined})
    const first = c.describe(issue).headers['idempotency-key']
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(c.describe({...issue, idempotency: {scope: 'execute'}}).headers['idempotency-key']).toBe(`${first}:execute`)
    expect(c.describe(issue).headers.authorization).toBeUndefined()
    expect(
      client({idempotencyKey: 'ci'}).describe({method: 'GET', path: ['cards']}).headers['idempotency-key'],
    ).toBeUndefined()
  })

  it('hides a credential given as a header (svc api --header) and a wallet signature, keeping the scheme', () => {
    const shown = client({tokenId: undefined, secret: undefined}).describe({
      method: 'GET',
      path: ['me'],
      headers: {Authorization: 'Bearer tok_live_1', 'service-wallet-signature': 'stamp', 'x-trace': 't1'},
    })
    expect(shown.headers).toMatchObject({
      Authorization: 'Bearer [REDACTED]',
      'service-wallet-signature': '[REDACTED]',
      'x-trace': 't1',
    })
    expect(JSON.stringify(shown)).not.toContain('tok_live_1')
  })

  it('an upload is described by its fields and file; the multipart body is encoded when sent', () => {
    const shown = client().describe({
      method: 'POST',
      path: ['documents'],
      upload: {
        fields: {documentType: 'OTHER', side: undefined},
        file: {name: 'a.pdf', type: 'application/pdf', bytes: new Uint8Array(5)},
      },
    })
    expect(shown.headers['content-type']).toBe('multipart/form-data')
    expect(shown.body).toEqual({
      documentType: 'OTHER',
      file: 'a.pdf (application/pdf, 5 bytes, sha256 8855508aade16ec573d21e6a485dfd0a7624085c1a14b5ecdd6485de0c6839a4)',
    })
  })
})

describe('ApiClient.parse after a write', () => {
  const tx = z.looseObject({id: z.string(), status: z.string(), fees: z.number().int().optional()})
  const odd = {id: 'Transaction:1', status: 'FAILED', fees: {amount: 5, currency: {code: 'USD'}}}

  it('a successful POST answered in an unexpected shape: a warning naming the field, the rest returned', async () => {
    answer('POST', '/transactions/Transaction%3A1/cancel', [{status: 200, body: odd}])
    const warnings: string[] = []
    const c = client({warn: (l) => warnings.push(l)})
    const res = await c.request({method: 'POST', path: ['transactions', 'Transaction:1', 'cancel'], body: {}})
    expect(c.parse(tx, res.body, 'transaction')).toEqual({id: 'Transaction:1', status: 'FAILED'})
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^The change was made, but the API answered with an unexpected transaction \(fees /)
  })

  it('the same shape from a GET is RESPONSE_INVALID (exit 1)', async () => {
    answer('GET', '/transactions/Transaction%3A1', [{status: 200, body: odd}])
    const c = client({warn: () => expect.unreachable('no warning for a read')})
    const res = await c.request({method: 'GET', path: ['transactions', 'Transaction:1']})
    expect(() => c.parse(tx, res.body, 'transaction')).toThrow(
      expect.objectContaining({code: 'RESPONSE_INVALID', exitCode: ExitCode.FAILED}),
    )
  })
})
