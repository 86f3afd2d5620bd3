import {createPublicKey, verify} from 'node:crypto'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {eventually} from '../helpers/wait.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({webhookRetryBaseMs: 60})
})
afterAll(async () => sbx.stop())

interface Received {
  body: string
  verified: boolean
  headers: Record<string, string | string[] | undefined>
}

/** The app being debugged: verifies each delivery's signature itself and answers `status(n)`. */
function app(status: (n: number) => number = () => 200): Promise<{server: Server; url: string; got: Received[]}> {
  const key = createPublicKey(sbx.emu.webhookPublicKeyPem)
  const got: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const sig = String(req.headers['x-service-signature'] ?? '')
      const verified = sig !== '' && verify('sha256', body, {key, dsaEncoding: 'der'}, Buffer.from(sig, 'base64'))
      got.push({body: body.toString('utf8'), verified, headers: req.headers})
      res.writeHead(verified ? status(got.length) : 401).end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, got}),
    ),
  )
}

describe('svc webhooks listen --forward-to', () => {
  it('20 events reach the app in order with their original bodies and signatures; the app status is printed per event', async () => {
    const target = await app((n) => (n === 6 ? 500 : 200)) // the app fails one: its status is shown, nothing else changes
    const listener = svc(
      ['webhooks', 'listen', '--port', '0', '--register', '--forward-to', target.url, '--json', '--max-events', '21'],
      {env: sbx.env, timeoutMs: 40_000},
    )
    await eventually(() => Boolean(sbx.emu.config().webhookEndpoint))
    const emitted = Array.from({length: 20}, (_, i) =>
      sbx.emu.webhooks.emit('CUSTOMER.UPDATED', {id: `Customer:fwd-${i}`, n: i}),
    )
    const r = await listener
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => l.type)).toEqual(['TEST', ...Array(20).fill('CUSTOMER.UPDATED')])
    expect(lines.slice(1).map((l) => l.data.n)).toEqual([...Array(20).keys()])
    expect(lines.map((l) => l.forward.status)).toEqual(Array.from({length: 21}, (_, i) => (i === 5 ? 500 : 200)))
    expect(lines[0].forward.url).toBe(target.url)
    // The app saw every event, in order, byte-identical to what the sandbox signed, and verified each.
    const appEvents = target.got.slice(1)
    expect(appEvents.map((g) => g.body)).toEqual(emitted.map((e) => JSON.stringify(e)))
    expect(target.got.every((g) => g.verified)).toBe(true)
    expect(target.got[0].headers['content-type']).toBe('application/json')
    target.server.close()
  }, 60_000)

  it('a bad --forward-to URL is exit 2 with nothing sent', async () => {
    const before = sbx.requestCount()
    const r = await svc(['webhooks', 'listen', '--forward-to', 'localhost:3000', '--json'], {env: sbx.env})
    expect(r.code).toBe(2)
    expect(r.json().error.details.errors).toEqual([
      {field: 'forward-to', message: 'must be an http(s) URL, got "localhost:3000"'},
    ])
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('svc webhooks events list / replay', () => {
  it('lists stored events (filter by type, last N)', async () => {
    const e = sbx.emu.webhooks.emit('CUSTOMER.KYC_APPROVED', {id: 'Customer:listed', kycStatus: 'APPROVED'})
    const r = await svc(['webhooks', 'events', 'list', '--type', 'CUSTOMER.KYC_APPROVED', '--last', '1', '--json'], {
      env: sbx.env,
    })
    expect(r.code, r.stderr).toBe(0)
    // each event with where its delivery stands (here: none, since the listener of the earlier test
    // put the endpoint back to what it was, nothing, when it stopped)
    expect(r.json().data).toEqual([{...e, delivery: {state: 'none', attempts: []}}])
    const human = await svc(['webhooks', 'events', 'list', '--type', 'CUSTOMER.KYC_APPROVED'], {env: sbx.env})
    expect(human.stdout).toContain(e.id)
    expect(human.stdout).toContain('Customer:listed')
    const bad = await svc(['webhooks', 'events', 'list', '--type', 'kyc approved', '--json'], {env: sbx.env})
    expect(bad.code).toBe(2)
  })

  it('replay re-delivers the identical body, signed, to the endpoint or --url, and records the delivery', async () => {
    const first = await app()
    await svc(['webhooks', 'endpoint', first.url], {env: sbx.env})
    const event = sbx.emu.webhooks.emit('OUTGOING_PAYMENT.COMPLETED', {id: 'Transaction:replayed', status: 'COMPLETED'})
    await eventually(() => first.got.some((g) => g.body.includes(event.id)))
    const original = first.got.find((g) => g.body.includes(event.id))!.body

    const again = await svc(['webhooks', 'replay', event.id, '--json'], {env: sbx.env})
    expect(again.code, again.stderr).toBe(0)
    expect(again.json()).toMatchObject({
      eventId: event.id,
      type: 'OUTGOING_PAYMENT.COMPLETED',
      url: first.url,
      response_status: 200,
    })
    const replays = first.got.filter((g) => g.body.includes(event.id))
    expect(replays).toHaveLength(2)
    expect(replays[1].body).toBe(original)
    expect(replays[1].verified).toBe(true)

    const other = await app()
    const elsewhere = await svc(['webhooks', 'replay', event.id, '--url', other.url, '--json'], {env: sbx.env})
    expect(elsewhere.code, elsewhere.stderr).toBe(0)
    expect(other.got.map((g) => g.body)).toEqual([original])
    const stored = sbx.emu.db.get<{delivery: string; attempts: Array<{url: string; replay?: boolean}>}>(
      'events',
      event.id,
    )!
    expect(stored.delivery).toBe('delivered')
    expect(stored.attempts.map((d) => [d.url, Boolean(d.replay)])).toEqual([
      [first.url, false],
      [first.url, true],
      [other.url, true],
    ])
    first.server.close()
    other.server.close()
    await svc(['webhooks', 'endpoint', '--clear'], {env: sbx.env})
  }, 30_000)

  it('replay: unknown event is exit 5, a malformed id or URL exit 2 with nothing sent, a failing app is reported', async () => {
    const missing = await svc(
      ['webhooks', 'replay', 'Webhook:does-not-exist', '--url', 'http://127.0.0.1:9/x', '--json'],
      {env: sbx.env},
    )
    expect(missing.code).toBe(5)
    const before = sbx.requestCount()
    expect((await svc(['webhooks', 'replay', 'Customer:1', '--json'], {env: sbx.env})).code).toBe(2)
    expect((await svc(['webhooks', 'replay', 'Webhook:abc', '--url', 'ftp://x', '--json'], {env: sbx.env})).code).toBe(
      2,
    )
    expect(sbx.requestCount()).toBe(before)
    const failing = await app(() => 503)
    const event = sbx.emu.webhooks.emit('CUSTOMER.UPDATED', {id: 'Customer:x'})
    const r = await svc(['webhooks', 'replay', event.id, '--url', failing.url, '--json'], {env: sbx.env})
    expect(r.code).toBe(1)
    expect(r.json().error).toMatchObject({code: 'WEBHOOK_DELIVERY_ERROR', details: {response_status: 503}})
    failing.server.close()
  })
})
