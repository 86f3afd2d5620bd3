import {MockAgent} from 'undici'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {unitClient, UNIT_ORIGIN} from '../../helpers/unit-client.js'
import {maybeSent} from '../../../src/lib/api/outcome.js'
import {ApiError, SvcError} from '../../../src/lib/errors.js'
import {ExitCode} from '../../../src/lib/exit-codes.js'
import {commandLine, redactArgv, withIdempotencyKey} from '../../../src/lib/history/command-line.js'

const ORIGIN = UNIT_ORIGIN

let agent: MockAgent
let notices: string[]
let warnings: string[]
let keys: string[]

function client() {
  return unitClient(agent, {
    notice: (l) => notices.push(l),
    warn: (l) => warnings.push(l),
  })
}

const lost = () => Object.assign(new Error('other side closed'), {code: 'UND_ERR_SOCKET'})

/** Queues, in order, answers (a status) or lost replies ('lost') for one route. */
function route(method: string, path: string, replies: Array<number | 'lost' | 'refused'>, body: unknown = {}) {
  const pool = agent.get(ORIGIN)
  for (const r of replies) {
    const i = pool.intercept({method, path: `/2025-10-13${path}`})
    if (r === 'lost') i.replyWithError(lost())
    else if (r === 'refused') i.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'}))
    else
      i.reply((opts) => {
        keys.push(String((opts.headers as Record<string, string>)['idempotency-key'] ?? ''))
        return {
          statusCode: r,
          data: JSON.stringify(body),
          responseOptions: {headers: {'content-type': 'application/json'}},
        }
      })
  }
}

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  notices = []
  warnings = []
  keys = []
})
afterEach(async () => agent.close())

const card = {method: 'POST' as const, path: ['cards'], body: {cardholderId: 'Customer:1'}, idempotencyKey: 'k-1'}

describe('a write whose answer is lost', () => {
  it('with a key: retried with the same key, then OUTCOME_UNKNOWN (exit 10) naming key, method, path and object', async () => {
    route('POST', '/cards', ['lost', 'lost', 'lost', 'lost'])
    const c = client()
    const err = await c.request(card).catch((e) => e)
    expect(err).toBeInstanceOf(SvcError)
    expect(err.code).toBe('OUTCOME_UNKNOWN')
    expect(err.exitCode).toBe(ExitCode.OUTCOME_UNKNOWN)
    expect(err.message).toBe('POST /cards was sent but not answered (other side closed): it may have been carried out')
    expect(err.details).toMatchObject({idempotencyKey: 'k-1', method: 'POST', path: '/cards', object: {type: 'card'}})
    expect(err.hint).toContain('--idempotency-key k-1')
    expect(notices).toEqual([
      'connection lost (other side closed); retrying in 0.2s (1/3)',
      'connection lost (other side closed); retrying in 0.4s (2/3)',
      'connection lost (other side closed); retrying in 0.8s (3/3)',
    ])
    expect(c.writes).toEqual([
      {
        method: 'POST',
        path: '/2025-10-13/cards',
        idempotencyKey: 'k-1',
        outcome: 'unknown',
        resend: {segments: ['cards'], body: {cardholderId: 'Customer:1'}},
      },
    ])
  })

  it('a lost answer then the replay: ok, the same key both times', async () => {
    route('POST', '/cards', ['lost', 201], {id: 'Card:1'})
    const c = client()
    const res = await c.request(card)
    expect(res.status).toBe(201)
    expect(keys).toEqual(['k-1'])
    expect(c.writes).toEqual([
      {
        method: 'POST',
        path: '/2025-10-13/cards',
        idempotencyKey: 'k-1',
        outcome: 'ok',
        status: 201,
        objectId: 'Card:1',
      },
    ])
  })

  it('nothing listening is not unknown: the request never left (exit 9, failed)', async () => {
    route('POST', '/cards', ['refused'])
    const c = client()
    const err = await c.request(card).catch((e) => e)
    expect(err.code).toBe('NETWORK_ERROR')
    expect(err.exitCode).toBe(ExitCode.NETWORK)
    expect(c.writes[0]).toMatchObject({outcome: 'failed', errorCode: 'NETWORK_ERROR'})
    expect(maybeSent(Object.assign(new Error('x'), {code: 'ENOTFOUND'}))).toBe(false)
    expect(maybeSent(Object.assign(new Error('x'), {code: 'UND_ERR_HEADERS_TIMEOUT'}))).toBe(true)
    expect(maybeSent(new Error('Proxy response (403) !== 200 when HTTP Tunneling'))).toBe(false)
    expect(maybeSent(Object.assign(new Error('x'), {cause: {code: 'DEPTH_ZERO_SELF_SIGNED_CERT'}}))).toBe(false)
  })

  it('429 or 503 on every attempt was refused each time: the answer stands; 504 may have got through: unknown', async () => {
    route('POST', '/cards', [503, 503, 503, 503], {code: 'SERVICE_UNAVAILABLE'})
    const refused = await client()
      .request(card)
      .catch((e) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused.status).toBe(503)
    expect(notices[0]).toBe('503 Service Unavailable; retrying in 0.2s (1/3)')
    route('POST', '/cards', [504, 504, 504, 504])
    const gateway = await client()
      .request(card)
      .catch((e) => e)
    expect(gateway.code).toBe('OUTCOME_UNKNOWN')
    expect(gateway.details.cause).toBe('504 from a gateway, then 504')
  })

  it('a lost answer, then a 429 on the last retry: unknown (the first attempt may have been done)', async () => {
    route('POST', '/cards', ['lost', 429, 429, 429], {code: 'RATE_LIMITED'})
    const err = await client()
      .request(card)
      .catch((e) => e)
    expect(err.code).toBe('OUTCOME_UNKNOWN')
    expect(err.details.cause).toBe('other side closed, then 429')
  })

  it('a write without a key is not retried, and its hint says to check first', async () => {
    route('POST', '/customers', ['lost'])
    const err = await client()
      .request({
        method: 'POST',
        path: ['customers'],
        body: {},
        hints: {OUTCOME_UNKNOWN: 'Look with svc customers list.'},
      })
      .catch((e) => e)
    expect(err.code).toBe('OUTCOME_UNKNOWN')
    expect(err.details.idempotencyKey).toBeNull()
    expect(err.hint).toBe('Look with svc customers list.')
    expect(notices).toEqual([])
  })

  it('a read-back that shows the write took effect stands for its answer', async () => {
    route('POST', '/quotes/Quote%3A1/execute', ['lost', 'lost', 'lost', 'lost'])
    route('GET', '/quotes/Quote%3A1', [200], {id: 'Quote:1', status: 'PROCESSING', transactionId: 'Transaction:9'})
    const res = await client().request({
      method: 'POST',
      path: ['quotes', 'Quote:1', 'execute'],
      idempotencyKey: 'k-2:execute',
      readBack: {
        request: {method: 'GET', path: ['quotes', 'Quote:1']},
        landed: (b) => ({done: (b as {status: string}).status === 'PROCESSING', said: 'Quote:1 is PROCESSING'}),
      },
    })
    expect(res.body).toMatchObject({transactionId: 'Transaction:9'})
    expect(warnings).toEqual([
      'No answer came to POST /2025-10-13/quotes/Quote%3A1/execute (other side closed); read back: Quote:1 is PROCESSING.',
    ])
  })
})

describe('the command line that finishes a write', () => {
  it('redacts secret flags, secret JSON fields, credential headers and secret arguments', () => {
    const argv = redactArgv(
      [
        'D-CODE-1',
        '--code',
        '123456',
        '--secret=abc',
        '--data',
        '{"password":"hunter2","amount":5}',
        '--header',
        'Authorization: Bearer sk_live',
        '--header',
        'X-Trace: 1',
        '--send',
        '10.00',
      ],
      ['D-CODE-1'],
    )
    expect(argv).toEqual([
      '[REDACTED]',
      '--code',
      '[REDACTED]',
      '--secret=[REDACTED]',
      '--data',
      '{"password":"[REDACTED]","amount":5}',
      '--header',
      'Authorization: Bearer [REDACTED]',
      '--header',
      'X-Trace: 1',
      '--send',
      '10.00',
    ])
  })

  it('replaces any key it was given and quotes for a shell', () => {
    expect(
      withIdempotencyKey(['Quote:1', '--idempotency-key', 'old', '--idempotency-key=older', '--yes'], 'k'),
    ).toEqual(['Quote:1', '--yes', '--idempotency-key', 'k'])
    expect(commandLine('quote:execute', ['Quote:1', '--description', "Ada's rent"])).toBe(
      `svc quote execute Quote:1 --description 'Ada'\\''s rent'`,
    )
  })
})
