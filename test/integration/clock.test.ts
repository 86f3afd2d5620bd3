import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {api, approvedCustomer, beneficiary, clabeEnding} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {individualArgs} from '../helpers/kyc.js'

// The spec's real delays (2 s decision, ~6 min slow payment, 30 s timeout) on a frozen clock: the
// tests advance past them; no real timer is waited on.
let sbx: TestSandbox
const T0 = '2030-01-01T00:00:00.000Z'
beforeAll(async () => {
  sbx = await startSandbox({realDelays: true, skipVerificationPaperwork: true, webhookRetryBaseMs: 1000})
})
afterAll(async () => sbx.stop())

/** Freezes the clock and sets it to T0 plus `ms` (each test starts on its own frozen instant, later than the last). */
let base = Date.parse(T0)
async function frozenAt(): Promise<number> {
  expect((await api(sbx, 'POST', '/sandbox/clock/freeze', {})).status).toBe(200)
  base += 86_400_000
  const r = await api(sbx, 'POST', '/sandbox/clock/advance', {to: new Date(base).toISOString()})
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return base
}
const iso = (ms: number) => new Date(ms).toISOString()

interface Hook {
  server: Server
  url: string
  got: Array<{type: string; timestamp: string; id: string; status: number}>
}
/** A webhook receiver answering 500 to the first `failures` deliveries of each event (but the TEST one), then 200. */
function receiver(failures = 0): Promise<Hook> {
  const got: Hook['got'] = []
  const tries = new Map<string, number>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      const e = JSON.parse(body) as {id: string; type: string; timestamp: string}
      const n = (tries.get(e.id) ?? 0) + 1
      tries.set(e.id, n)
      const status = n <= failures && e.type !== 'TEST' ? 500 : 200
      got.push({type: e.type, timestamp: e.timestamp, id: e.id, status})
      res.writeHead(status).end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got}),
    ),
  )
}
let hook: Hook | undefined
async function listen(failures = 0): Promise<Hook> {
  hook = await receiver(failures)
  // Setting the endpoint sends a TEST event; it is delivered at once (the clock is frozen, not stopped).
  expect((await api(sbx, 'PATCH', '/config', {webhookEndpoint: hook.url})).status).toBe(200)
  await sbx.emu.webhooks.idle()
  hook.got.length = 0
  return hook
}
afterEach(async () => {
  await api(sbx, 'PATCH', '/config', {webhookEndpoint: ''})
  hook?.server.close()
  hook = undefined
})

async function payout(suffix: string) {
  const c = await approvedCustomer(sbx, ['USD', 'MXN'])
  await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 50_000})
  const dest = await api(sbx, 'POST', '/customers/external-accounts', {
    customerId: c.id,
    currency: 'MXN',
    accountInfo: {accountType: 'CLABE', clabeNumber: clabeEnding(suffix), beneficiary},
  })
  expect(dest.status, JSON.stringify(dest.body)).toBe(201)
  const q = await api(sbx, 'POST', '/quotes', {
    source: {sourceType: 'ACCOUNT', accountId: c.account('USD')},
    destination: {destinationType: 'ACCOUNT', accountId: dest.body.id},
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  })
  expect(q.status, JSON.stringify(q.body)).toBe(201)
  return {customer: c, quote: q.body as {id: string; expiresAt: string}}
}

describe('journeys on a frozen clock, through the real CLI', () => {
  it('a slow payment (003) stays PROCESSING until `clock advance 6m`, then COMPLETED with its webhook at the virtual time', async () => {
    const t0 = await frozenAt()
    const h = await listen()
    const {quote} = await payout('003')
    const exec = await api(sbx, 'POST', `/quotes/${quote.id}/execute`, {})
    expect(exec.status, JSON.stringify(exec.body)).toBe(200)
    const before = await sbx.run(['quote', 'get', quote.id, '--json'])
    expect(before.json().status).toBe('PROCESSING')

    const adv = await sbx.run(['sandbox', 'clock', 'advance', '6m', '--json'])
    expect(adv.code, adv.stderr).toBe(0)
    const out = adv.json()
    expect(out.from).toBe(iso(t0))
    expect(out.to).toBe(iso(t0 + 360_000))
    expect(out.clock).toMatchObject({mode: 'frozen', now: iso(t0 + 360_000)})
    expect(out.jobs).toContainEqual(
      expect.objectContaining({kind: 'payment.settle', at: iso(t0 + 360_000), outcome: 'ran'}),
    )
    expect(out.summary.events['OUTGOING_PAYMENT.COMPLETED']).toBe(1)
    const after = await sbx.run(['quote', 'get', quote.id, '--json'])
    expect(after.json().status).toBe('COMPLETED')
    expect(h.got.filter((e) => e.type === 'OUTGOING_PAYMENT.COMPLETED')).toEqual([
      expect.objectContaining({timestamp: iso(t0 + 360_000), status: 200}),
    ])
  })

  it('a quote past its TTL is refused at execute', async () => {
    await frozenAt()
    const {quote} = await payout('123')
    const adv = await sbx.run(['sandbox', 'clock', 'advance', '2m1s', '--json'])
    expect(adv.code, adv.stderr).toBe(0)
    expect(adv.json().summary.jobs['quote.expire']).toBe(1)
    const r = await sbx.run(['quote', 'execute', quote.id, '--yes', '--json'])
    expect(r.code).not.toBe(0)
    expect(r.json().error).toMatchObject({code: 'QUOTE_EXPIRED'})
    expect(r.json().error.reason).toContain(quote.expiresAt)
  })

  it('a KYC link past its hour answers 410', async () => {
    await frozenAt()
    const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace'})
    const link = await sbx.run(['kyc', 'link', c.body.id, '--json'])
    expect(link.code, link.stderr).toBe(0)
    const url = link.json().kycUrl as string
    expect((await fetch(url)).status).toBe(200)
    expect((await sbx.run(['sandbox', 'clock', 'advance', '1h1s', '--json'])).code).toBe(0)
    const gone = await fetch(url)
    expect(gone.status).toBe(410)
    expect(await gone.text()).toMatch(/expired/)
  })

  it('a card authorization expires when the clock passes its processing time', async () => {
    const t0 = await frozenAt()
    const c = await approvedCustomer(sbx, ['USD'])
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 10_000})
    const issued = await sbx.run([
      'cards',
      'issue',
      '--customer',
      c.id,
      '--account',
      c.account('USD'),
      '--platform-card-id',
      `clk-${t0}-100`,
      '--json',
    ])
    expect(issued.code, issued.stderr).toBe(0)
    const card = issued.json().id as string
    expect((await api(sbx, 'POST', '/sandbox/clock/advance', {by: '1s'})).body.summary.jobs['card.provisioned']).toBe(1)
    const authorized = await sbx.run([
      'sandbox',
      'card',
      'authorization',
      card,
      '--amount',
      '12.50',
      '--descriptor',
      'BLUE BOTTLE COFFEE SF',
      '--wait-for-event',
      '--json',
    ])
    expect(authorized.code, authorized.stderr).toBe(0)
    const tx = authorized.json().event.data.id as string
    const expiry = await sbx.run(['sandbox', 'card', 'authorization_expiry', card, '--transaction', tx, '--json'])
    expect(expiry.code, expiry.stderr).toBe(0)
    const status = () => sbx.emu.db.get<{status: string}>('cardTransactions', tx)!.status
    expect(status()).toBe('AUTHORIZED') // the expiry is processed in the background: not before the clock moves
    const adv = await sbx.run(['sandbox', 'clock', 'advance', '1s', '--json'])
    // (the cardholder's own KYC decision, started at creation by skipVerificationPaperwork, runs in this second too)
    expect(adv.json().jobs.filter((j: {kind: string}) => j.kind.startsWith('card.'))).toEqual([
      expect.objectContaining({kind: 'card.expire', at: iso(t0 + 1000 + 200)}),
    ])
    expect(adv.json().events.filter((e: {type: string}) => e.type.startsWith('CARD_'))).toEqual([
      expect.objectContaining({type: 'CARD_TRANSACTION.VOIDED', timestamp: iso(t0 + 1000 + 200)}),
    ])
    expect(status()).toBe('VOIDED')
  })

  it('a webhook that fails is retried on its backoff schedule as the clock is advanced', async () => {
    const t0 = await frozenAt()
    const c = await approvedCustomer(sbx, ['USD'])
    const h = await listen(3) // 500 three times, then 200
    await api(sbx, 'POST', `/sandbox/internal-accounts/${c.account('USD')}/fund`, {amount: 1_000})
    await sbx.emu.webhooks.idle()
    const funded = sbx.emu.webhooks.stored('INCOMING_PAYMENT').at(-1)!
    const attempts = () =>
      sbx.emu.db.get<{attempts: Array<{at: string; status: number}>; delivery: string}>('events', funded.event.id)!
    expect(attempts().attempts.map((a) => a.at)).toEqual([iso(t0)]) // the first try, at once
    const first = await sbx.run(['sandbox', 'clock', 'advance', '2s', '--json'])
    expect(first.code, first.stderr).toBe(0)
    expect(attempts().attempts.map((a) => a.at)).toEqual([iso(t0), iso(t0 + 1000)]) // base 1 s
    expect(attempts().delivery).toBe('pending')
    await sbx.run(['sandbox', 'clock', 'advance', '1h', '--json'])
    // Doubling: 1 s, then 2 s, then 4 s after each failure; the fourth attempt is answered 200.
    expect(attempts().attempts.map((a) => [a.at, a.status])).toEqual([
      [iso(t0), 500],
      [iso(t0 + 1000), 500],
      [iso(t0 + 3000), 500],
      [iso(t0 + 7000), 200],
    ])
    expect(attempts().delivery).toBe('delivered')
    expect(h.got.filter((g) => g.id === funded.event.id).map((g) => g.status)).toEqual([500, 500, 500, 200])
  })

  it('one advance crosses chained jobs in due order: settle -> decision -> a return the settlement scheduled, webhooks in that order', async () => {
    const t0 = await frozenAt()
    const h = await listen()
    const {quote} = await payout('005') // completes, then the receiving bank returns it
    expect((await api(sbx, 'POST', `/quotes/${quote.id}/execute`, {})).status).toBe(200)
    const created = await sbx.run(individualArgs('Grace Hopper', '--json'))
    expect(created.code, created.stderr).toBe(0)
    const customer = created.json().id as string
    await sbx.emu.webhooks.idle()
    h.got.length = 0
    const adv = await sbx.run(['sandbox', 'clock', 'advance', '10s', '--json'])
    expect(adv.code, adv.stderr).toBe(0)
    const jobs = adv.json().jobs as Array<{kind: string; at: string}>
    const at = (kind: string) => jobs.filter((j) => j.kind === kind).map((j) => j.at)
    expect(at('payment.settle')).toEqual([iso(t0 + 500)])
    expect(at('kyc.decide')).toContain(iso(t0 + 2000)) // the 2 s decision of the spec
    expect(at('payment.return')).toEqual([iso(t0 + 500 + 5000)]) // scheduled by the settlement, inside the window
    expect(jobs.map((j) => j.at)).toEqual([...jobs.map((j) => j.at)].sort())
    const events = (adv.json().events as Array<{type: string; timestamp: string}>).map((e) => [e.type, e.timestamp])
    expect(events).toEqual([
      ['OUTGOING_PAYMENT.COMPLETED', iso(t0 + 500)],
      ['CUSTOMER.KYC_APPROVED', iso(t0 + 2000)],
      ['OUTGOING_PAYMENT.FAILED', iso(t0 + 5500)],
      ['OUTGOING_PAYMENT.REFUND_COMPLETED', iso(t0 + 5500)],
    ])
    expect(h.got.map((g) => [g.type, g.timestamp])).toEqual(events)
    expect(sbx.emu.db.get<{kycStatus: string}>('customers', customer)!.kycStatus).toBe('APPROVED')
  })
})
