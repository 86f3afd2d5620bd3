import {MockAgent} from 'undici'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {ApiClient} from '../../../src/lib/api/client.js'
import {SvcError} from '../../../src/lib/errors.js'
import {generateP256KeyPair, parseStamp, stamp, verifyStamp} from '../../../src/lib/wallet/index.js'
import {isProcessingBody, SignedRetryEngine, type SignedOperation} from '../../../src/lib/wallet/signed-retry.js'

const ORIGIN = 'http://api.test'
const BASE = `${ORIGIN}/2025-10-13`
const key = generateP256KeyPair()

interface Seen {
  method: string
  path: string
  body: string | undefined
  headers: Record<string, string>
}

let agent: MockAgent
let seen: Seen[]
let client: ApiClient

beforeEach(() => {
  vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2026-01-01T00:00:00Z')})
  agent = new MockAgent()
  agent.disableNetConnect()
  seen = []
  client = new ApiClient({
    baseUrl: BASE,
    tokenId: 't',
    timeoutMs: 5000,
    userAgent: 'test',
    dispatcher: agent,
    maxRetries: 0,
  })
})
afterEach(async () => {
  vi.useRealTimers()
  await agent.close()
})

type Reply = {status: number; body?: unknown; headers?: Record<string, string>}

/** Scripts the answers in order; records every request exactly as it went on the wire. */
function script(method: string, path: string, replies: Array<Reply | ((s: Seen) => Reply)>) {
  const pool = agent.get(ORIGIN)
  for (const reply of replies) {
    pool.intercept({path: `/2025-10-13${path}`, method}).reply((opts) => {
      const s: Seen = {
        method,
        path,
        body: opts.body === undefined || opts.body === null ? undefined : String(opts.body),
        headers: lower(opts.headers as Record<string, string>),
      }
      seen.push(s)
      const r = typeof reply === 'function' ? reply(s) : reply
      return {
        statusCode: r.status,
        data: r.body === undefined ? '' : JSON.stringify(r.body),
        responseOptions: {headers: {'content-type': 'application/json', ...r.headers}},
      }
    })
  }
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]))
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString()
const challenge = (n = 1, expiresAt = inMinutes(5)) => ({
  status: 202,
  body: {payloadToSign: `{"op":"x","n":${n}, "spaces":  "kept"}\n`, requestId: `Request:${n}`, expiresAt},
})
const PROCESSING = {status: 200, body: {status: 'PROCESSING', message: 'settling'}}

function engine(timeoutMs = 60_000) {
  const notes: string[] = []
  const e = new SignedRetryEngine({
    client,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    deadline: Date.now() + timeoutMs,
    note: (l) => notes.push(l),
    random: () => 0.5,
  })
  return {e, notes}
}

/** Runs the engine with fake time flowing until it settles. */
async function drive<T>(p: Promise<T>): Promise<T> {
  let done = false
  const out = p.finally(() => (done = true))
  out.catch(() => {})
  while (!done) await vi.advanceTimersByTimeAsync(50)
  return out
}

const op = (over: Partial<SignedOperation> = {}): SignedOperation => ({
  method: 'POST',
  path: ['internal-accounts', 'InternalAccount:1', 'export'],
  body: {clientPublicKey: '04ab', z: 1, a: 'é'},
  success: 'ok',
  what: 'export of InternalAccount:1',
  resume: 'run svc wallet export again',
  ...over,
})
const signer = vi.fn((c: {payloadToSign: string}) => stamp(c.payloadToSign, key.privateKey))

beforeEach(() => {
  signer.mockClear()
})

describe('signed-retry engine', () => {
  it('stamps payloadToSign exactly as received and retries with the byte-identical body and Request-Id', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(),
      {status: 200, body: {id: 'InternalAccount:1', encryptedWalletCredentials: 'x'}},
    ])
    const {e} = engine()
    const r = await drive(e.run(op(), signer))
    expect(r.status).toBe(200)
    expect(r.sends).toBe(1)
    const [leg1, leg2] = seen
    expect(leg2.body).toBe(leg1.body)
    expect(leg1.headers['service-wallet-signature']).toBeUndefined()
    expect(leg2.headers['request-id']).toBe('Request:1')
    expect(verifyStamp(leg2.headers['service-wallet-signature'], challenge().body.payloadToSign)).toBe(true)
    expect(parseStamp(leg2.headers['service-wallet-signature']).publicKey).toBe(
      Buffer.from(key.publicKeyCompressed).toString('hex'),
    )
  })

  it('re-sends a PROCESSING request byte for byte with the same stamp and Request-Id, signing once', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(),
      PROCESSING,
      PROCESSING,
      {status: 200, body: {id: 'InternalAccount:1', encryptedWalletCredentials: 'x'}},
    ])
    const {e, notes} = engine()
    const started = Date.now()
    const r = await drive(e.run(op(), signer))
    expect(r.sends).toBe(3)
    expect(signer).toHaveBeenCalledTimes(1)
    const legs2 = seen.slice(1)
    expect(new Set(legs2.map((s) => s.body)).size).toBe(1)
    expect(legs2[0].body).toBe(seen[0].body)
    expect(new Set(legs2.map((s) => s.headers['service-wallet-signature'])).size).toBe(1)
    expect(new Set(legs2.map((s) => s.headers['request-id']))).toEqual(new Set(['Request:1']))
    // Backoff: 250 ms then 500 ms (jitter 0.5 -> 3/4 of the base).
    expect(Date.now() - started).toBeGreaterThanOrEqual(187 + 375)
    expect(notes.join('\n')).toContain('still processing')
  })

  it('treats 200 as still processing for add/refresh/revoke (success is 201/204)', async () => {
    script('DELETE', '/auth/credentials/AuthMethod%3A2', [challenge(), {status: 200, body: {}}, {status: 204}])
    const {e} = engine()
    const r = await drive(
      e.run(
        op({method: 'DELETE', path: ['auth', 'credentials', 'AuthMethod:2'], body: undefined, success: 'created'}),
        signer,
      ),
    )
    expect(r.status).toBe(204)
    expect(r.sends).toBe(2)
    expect(seen.every((s) => s.body === undefined)).toBe(true)
  })

  it('does not mistake a Quote with status PROCESSING for the still-processing answer', () => {
    expect(isProcessingBody({status: 'PROCESSING'})).toBe(true)
    expect(isProcessingBody({status: 'PROCESSING', message: 'x'})).toBe(true)
    expect(isProcessingBody({id: 'Quote:1', status: 'PROCESSING'})).toBe(false)
    expect(isProcessingBody([{status: 'PROCESSING'}])).toBe(false)
  })

  it('waits Retry-After on 429 and sends the same bytes again', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      {status: 429, body: {code: 'RATE_LIMITED', message: 'slow down'}, headers: {'retry-after': '3'}},
      challenge(),
      {status: 429, body: {code: 'RATE_LIMITED', message: 'slow down'}, headers: {'retry-after': '2'}},
      {status: 200, body: {id: 'InternalAccount:1', encryptedWalletCredentials: 'x'}},
    ])
    const {e, notes} = engine()
    const started = Date.now()
    await drive(e.run(op(), signer))
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000)
    expect(seen[3].body).toBe(seen[2].body)
    expect(seen[3].headers['service-wallet-signature']).toBe(seen[2].headers['service-wallet-signature'])
    expect(notes.filter((n) => n.includes('Retry-After'))).toHaveLength(2)
  })

  it('gives up with exit 7 when Retry-After goes past --timeout', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      {status: 429, body: {code: 'RATE_LIMITED'}, headers: {'retry-after': '120'}},
    ])
    const {e} = engine(10_000)
    const err = await drive(e.run(op(), signer)).catch((x) => x)
    expect(err).toBeInstanceOf(SvcError)
    expect(err.exitCode).toBe(7)
  })

  it('export (rule 4): a challenge that lapses while processing starts a fresh export', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(1, inMinutes(0.01)),
      PROCESSING,
      PROCESSING,
      PROCESSING,
      challenge(2),
      {status: 200, body: {id: 'InternalAccount:1', encryptedWalletCredentials: 'x'}},
    ])
    const {e, notes} = engine()
    const r = await drive(e.run({...op(), restartOnLapse: true}, signer))
    expect(r.challenge?.requestId).toBe('Request:2')
    expect(signer).toHaveBeenCalledTimes(2)
    expect(seen[5].headers['request-id']).toBe('Request:2')
    expect(seen[5].body).toBe(seen[0].body)
    expect(notes.join('\n')).toContain('lapsed')
  })

  it('other operations stop at a lapse with exit 8 and say where the outcome shows', async () => {
    script('DELETE', '/auth/sessions/Session%3A1', [
      challenge(1, inMinutes(0.01)),
      {status: 200, body: {}},
      {status: 200, body: {}},
      {status: 200, body: {}},
    ])
    const {e} = engine()
    const err = await drive(
      e.run(
        op({
          method: 'DELETE',
          path: ['auth', 'sessions', 'Session:1'],
          body: undefined,
          success: 'created',
          resume: 'check sessions list',
        }),
        signer,
      ),
    ).catch((x) => x)
    expect(err).toMatchObject({code: 'SIGNED_CHALLENGE_EXPIRED', exitCode: 8})
    expect(err.hint).toContain('check sessions list')
  })

  it('asks for a fresh challenge when one arrives already expired, before signing', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(1, inMinutes(-1)),
      challenge(2),
      {status: 200, body: {id: 'x', encryptedWalletCredentials: 'y'}},
    ])
    const {e} = engine()
    const r = await drive(e.run(op(), signer))
    expect(r.challenge?.requestId).toBe('Request:2')
    expect(signer).toHaveBeenCalledTimes(1)
  })

  it('exits 8 with the resume hint when still processing at --timeout', async () => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(),
      ...Array.from({length: 40}, () => PROCESSING),
    ])
    const {e} = engine(3000)
    const err = await drive(e.run(op(), signer)).catch((x) => x)
    expect(err).toMatchObject({code: 'WALLET_OPERATION_PROCESSING', exitCode: 8, hint: 'run svc wallet export again'})
    expect(err.message).toContain('Request:1')
    expect(signer).toHaveBeenCalledTimes(1)
  })

  it('returns a non-202 first answer without signing (nothing tied to a wallet changed)', async () => {
    script('PATCH', '/customers/Customer%3A1', [{status: 200, body: {id: 'Customer:1'}}])
    const {e} = engine()
    const r = await drive(
      e.run(
        op({method: 'PATCH', path: ['customers', 'Customer:1'], body: {customerType: 'INDIVIDUAL', fullName: 'A B'}}),
        signer,
      ),
    )
    expect(r).toMatchObject({status: 200, body: {id: 'Customer:1'}, sends: 0})
    expect(signer).not.toHaveBeenCalled()
  })

  it('re-requests a still-processing unsigned answer (EMAIL_OTP challenge, rule 5)', async () => {
    script('POST', '/auth/credentials/AuthMethod%3A1/challenge', [
      PROCESSING,
      {status: 200, body: {id: 'AuthMethod:1', otpEncryptionTargetBundle: '{}'}},
    ])
    const {e} = engine()
    const r = await drive(e.run(op({path: ['auth', 'credentials', 'AuthMethod:1', 'challenge'], body: {}}), signer))
    expect(r.body).toMatchObject({id: 'AuthMethod:1'})
    expect(seen).toHaveLength(2)
  })

  const CODES: Array<[string, RegExp]> = [
    ['WALLET_SIGNATURE_MISSING', /none arrived/],
    ['WALLET_SIGNATURE_MALFORMED', /not a valid stamp/],
    ['WALLET_SIGNATURE_BODY_MISMATCH', /different request body/],
    ['WALLET_SIGNATURE_INVALID', /active session key/],
    ['REQUEST_ID_MISSING', /Request-Id/],
    ['INVALID_SIGNATURE', /signature was rejected/],
    ['UNAUTHORIZED', /refused the request/],
  ]
  it.each(CODES)('explains 401 %s: what happened and what to do (exit 4)', async (code, what) => {
    script('POST', '/internal-accounts/InternalAccount%3A1/export', [
      challenge(),
      {status: 401, body: {code, message: `server says ${code}`}},
    ])
    const {e} = engine()
    const err = await drive(e.run(op(), signer)).catch((x) => x)
    expect(err).toBeInstanceOf(SvcError)
    expect(err).toMatchObject({code, status: 401, exitCode: 4})
    expect(err.message).toMatch(what)
    expect(err.message).toContain(`server says ${code}`)
    expect(err.hint).toMatch(/svc|Re-run|re-run/)
  })
})

describe('signed-retry engine: chained challenges (delegated keys, three legs)', () => {
  const create = (over: Partial<SignedOperation> = {}) =>
    op({
      path: ['auth', 'delegated-keys'],
      body: {cardId: 'Card:1', internalAccountId: 'InternalAccount:1', nickname: 'k'},
      success: 'created',
      signedLegs: 2,
      ...over,
    })

  it('signs the second challenge with the same signer, sends the same bytes with its own Request-Id, and ends on 201', async () => {
    script('POST', '/auth/delegated-keys', [
      challenge(1),
      challenge(2),
      {status: 201, body: {id: 'DelegatedKey:1', status: 'ACTIVE'}},
    ])
    const {e} = engine()
    const r = await drive(e.run(create(), signer))
    expect(r.status).toBe(201)
    expect(r.body).toEqual({id: 'DelegatedKey:1', status: 'ACTIVE'})
    expect(signer).toHaveBeenCalledTimes(2)
    const [leg1, leg2, leg3] = seen
    expect(new Set([leg1.body, leg2.body, leg3.body]).size).toBe(1)
    expect(leg1.headers['request-id']).toBeUndefined()
    expect(leg2.headers['request-id']).toBe('Request:1')
    expect(leg3.headers['request-id']).toBe('Request:2')
    expect(verifyStamp(leg2.headers['service-wallet-signature'], challenge(1).body.payloadToSign)).toBe(true)
    expect(verifyStamp(leg3.headers['service-wallet-signature'], challenge(2).body.payloadToSign)).toBe(true)
  })

  it('a third 202 beyond signedLegs is returned as is (never signed): nothing is signed blindly', async () => {
    script('POST', '/auth/delegated-keys', [challenge(1), challenge(2), challenge(3)])
    const {e} = engine()
    const r = await drive(e.run(create(), signer))
    expect(r.status).toBe(202)
    expect(signer).toHaveBeenCalledTimes(2)
    expect(seen).toHaveLength(3)
  })

  it('without signedLegs a second 202 ends the run (the one-challenge operations are unchanged)', async () => {
    script('POST', '/auth/delegated-keys', [challenge(1), challenge(2)])
    const {e} = engine()
    const r = await drive(e.run(create({signedLegs: undefined}), signer))
    expect(r.status).toBe(202)
    expect(signer).toHaveBeenCalledTimes(1)
  })
})
