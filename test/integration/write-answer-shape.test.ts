import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {cliEnv} from '../helpers/sandbox.js'

/**
 * A service that answers in a shape the CLI does not expect (here the old `fees: {amount, currency}`
 * objects). After a write the change has happened: the command must say so and exit 0, with a
 * warning on stderr; a read with the same shape is still RESPONSE_INVALID (exit 1).
 */
const TX = 'Transaction:0a0a0a0a-0000-4000-8000-000000000001'
const USD = {code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2}
const legacy = {
  id: TX,
  status: 'FAILED',
  type: 'OUTGOING',
  direction: 'DEBIT',
  sentAmount: {amount: 10_000, currency: USD},
  fees: {amount: 125, currency: USD},
  platformFees: {amount: 0, currency: USD},
  createdAt: '2026-01-01T00:00:00Z',
}

let server: Server
let env: Record<string, string>
const seen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    req.resume()
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/2025-10-13/, '')
      const body = path.startsWith('/quotes/')
        ? {id: 'Quote:1', status: 'PENDING', sendingCurrency: USD, receivingCurrency: USD}
        : {...legacy, status: req.method === 'GET' ? 'FAILED' : path === '/sandbox/send' ? 'PROCESSING' : 'FAILED'}
      res.writeHead(200, {'content-type': 'application/json'})
      res.end(JSON.stringify(body))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  env = {
    ...cliEnv(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`,
      'tok_test',
      'sk_test_secret_value',
    ),
    SVC_ENVIRONMENT: 'sandbox',
  }
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('an unexpected answer shape after a successful write', () => {
  it('transactions cancel: exit 0, the transaction printed without the fields that do not fit, a warning on stderr', async () => {
    const r = await svc(['transactions', 'cancel', TX, '--yes', '--json'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({id: TX, status: 'FAILED', sentAmount: {amount: 10_000}})
    expect(r.json().fees).toBeUndefined()
    expect(r.stderr).toMatch(
      /change was made, but the API answered with an unexpected transaction \(.*fees must be a number/,
    )
    expect(r.stderr).not.toMatch(/Error/)
    expect(seen).toContain(`POST /2025-10-13/transactions/${encodeURIComponent(TX)}/cancel`)
  })

  it('sandbox send (human output): exit 0, the send is reported, with the warning', async () => {
    const r = await svc(['sandbox', 'send', 'Quote:1', '--currency', 'USD'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Funds sent for Quote:1: Transaction:\S+ PROCESSING/)
    expect(r.stderr).toMatch(/change was made, but the API answered with an unexpected transaction/)
  })

  it('a read with the same shape is still RESPONSE_INVALID (exit 1): nothing happened that could be misreported', async () => {
    const r = await svc(['transactions', 'get', TX, '--json'], {env})
    expect(r.code).toBe(1)
    expect(r.json().error.code).toBe('RESPONSE_INVALID')
    expect(r.json().error.reason ?? r.json().error.message).toMatch(/fees/)
  })
})
