import {describe, expect, it} from 'vitest'
import {waitForDecision} from '../../../src/lib/workflows/kyc/wait.js'
import {SvcError} from '../../../src/lib/errors.js'

/** A fake clock and client: each GET /customers answers the next status; sleeps advance the clock. */
function harness(statuses: string[], timeoutMs = 60_000) {
  let t = 0
  const sleeps: number[] = []
  const warnings: string[] = []
  const customer = (kycStatus: string) => ({
    id: 'Customer:1',
    customerType: 'INDIVIDUAL',
    kycStatus,
    createdAt: '2026-01-01T00:00:00Z',
  })
  const client = {
    request: async (req: {path: string[]}) => {
      if (req.path[0] === 'verifications') return {status: 200, body: {data: [], hasMore: false, totalCount: 0}}
      return {status: 200, body: customer(statuses.length > 1 ? statuses.shift()! : statuses[0])}
    },
    parse: (_schema: unknown, body: unknown) => body,
    // The transport reads the answer with the request's schema; this fake trusts it as it is.
    call: async (req: {path: string[]}) => (await client.request(req)).body,
  }
  const ctx = {
    client,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      t += ms
    },
    remainingMs: () => Math.max(0, timeoutMs - t),
    out: {warn: (m: string) => warnings.push(m)},
  }
  const written: string[] = []
  const stream = (isTTY: boolean) => ({isTTY, write: (s: string) => written.push(s)}) as unknown as NodeJS.WriteStream
  return {ctx: ctx as never, sleeps, warnings, written, stream}
}

describe('kyc wait: polling with backoff', () => {
  it('returns the approved customer, backing off 250 ms x1.6 up to 5 s, with a spinner only on a TTY', async () => {
    const h = harness([...Array(10).fill('PENDING'), 'APPROVED'])
    const c = await waitForDecision(h.ctx, 'Customer:1', h.stream(true))
    expect(c.kycStatus).toBe('APPROVED')
    expect(h.sleeps.slice(0, 4)).toEqual([250, 400, 640, 1024])
    expect(Math.max(...h.sleeps)).toBe(5000)
    expect(h.written.some((w) => w.includes('KYC PENDING · waiting for a decision'))).toBe(true)
    expect(h.written.at(-1)).toBe('\r\x1b[2K')

    const quiet = harness(['PENDING', 'APPROVED'])
    await waitForDecision(quiet.ctx, 'Customer:1', quiet.stream(false))
    expect(quiet.written).toEqual([])
  })

  it('REJECTED is exit 1; still undecided at the timeout is exit 8 with the re-run hint', async () => {
    const rejected = harness(['PENDING', 'REJECTED'])
    const err = await waitForDecision(rejected.ctx, 'Customer:1', rejected.stream(false)).catch((e) => e)
    expect(err).toBeInstanceOf(SvcError)
    expect(err).toMatchObject({code: 'KYC_REJECTED', exitCode: 1})

    const slow = harness(['PENDING'], 3000)
    const late = await waitForDecision(slow.ctx, 'Customer:1', slow.stream(false)).catch((e) => e)
    expect(late).toMatchObject({exitCode: 8})
    expect(late.message).toMatch(/still PENDING after 3s/)
    expect(slow.sleeps.reduce((a: number, b: number) => a + b, 0)).toBe(3000)
  })
})
