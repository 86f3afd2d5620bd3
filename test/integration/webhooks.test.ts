import {createPublicKey, verify} from 'node:crypto'
import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {recordedExchanges} from '../helpers/contract-recorder.js'
import {api} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {svcLive} from '../helpers/cli.js'
import {eventually} from '../helpers/wait.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({webhookRetryBaseMs: 60})
})
afterAll(async () => sbx.stop())

interface Delivery {
  at: number
  body: string
  signature: string
}

/** An endpoint that answers 500 to the first `failures` deliveries of each event id, then 200. */
function endpoint(failures: number): Promise<{server: Server; url: string; got: Delivery[]}> {
  const got: Delivery[] = []
  const tries = new Map<string, number>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      got.push({at: Date.now(), body, signature: String(req.headers['x-service-signature'])})
      const id = (JSON.parse(body) as {id: string}).id
      const n = (tries.get(id) ?? 0) + 1
      tries.set(id, n)
      res.writeHead(n <= failures ? 500 : 200).end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got}),
    ),
  )
}

async function publicKey(): Promise<string> {
  const res = await fetch(`${sbx.url}/sandbox/webhook-public-key`) // no credentials: it is public
  expect(res.status).toBe(200)
  return res.text()
}

describe('webhooks plumbing', () => {
  it('serves the signing key without credentials; it is the key printed at start', async () => {
    const pem = await publicKey()
    expect(pem).toBe(sbx.emu.webhookPublicKeyPem)
    expect(createPublicKey(pem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1')
  })

  it('webhooks endpoint sets, shows and clears PATCH /config webhookEndpoint; a bad URL is exit 2 with nothing sent', async () => {
    const before = sbx.requestCount()
    const bad = await sbx.run(['webhooks', 'endpoint', 'ftp://nope', '--json'])
    expect(bad.code).toBe(2)
    expect(bad.json().error.details.errors[0].field).toBe('webhookEndpoint')
    expect(sbx.requestCount()).toBe(before)
    const set = await sbx.run(['webhooks', 'endpoint', 'http://127.0.0.1:9/hook', '--json'])
    expect(set.code).toBe(0)
    expect(set.json()).toEqual({webhookEndpoint: 'http://127.0.0.1:9/hook'})
    expect(sbx.emu.config().webhookEndpoint).toBe('http://127.0.0.1:9/hook')
    const show = await sbx.run(['webhooks', 'endpoint'])
    expect(show.stdout.trim()).toBe('http://127.0.0.1:9/hook')
    const clear = await sbx.run(['webhooks', 'endpoint', '--clear', '--json'])
    expect(clear.json()).toEqual({webhookEndpoint: null})
    expect(sbx.emu.config().webhookEndpoint).toBeNull()
    // --clear sends "" (the contract's webhookEndpoint is a string); with none set, GET /config leaves it out
    expect(
      recordedExchanges()
        .filter((x) => x.method === 'PATCH' && x.path === '/config')
        .at(-1)?.requestBody,
    ).toEqual({webhookEndpoint: ''})
    const config = await api(sbx, 'GET', '/config')
    expect(config.status).toBe(200)
    expect('webhookEndpoint' in config.body).toBe(false)
  })

  it('webhooks trigger with no endpoint fails with the API code; with --url it delivers a signed TEST event', async () => {
    const none = await sbx.run(['webhooks', 'trigger', '--json'])
    expect(none.code).toBe(1)
    expect(none.json().error.code).toBe('WEBHOOK_ENDPOINT_NOT_SET')
    // POST /sandbox/webhooks/test takes no body: none is sent (no content-type either)
    const sent = recordedExchanges()
      .filter((x) => x.path === '/sandbox/webhooks/test')
      .at(-1)!
    expect(sent).toMatchObject({fromCli: true, requestBody: undefined, requestContentType: ''})
    const ep = await endpoint(0)
    try {
      const r = await sbx.run(['webhooks', 'trigger', '--url', ep.url, '--json'])
      expect(r.code).toBe(0)
      expect(r.json()).toMatchObject({url: ep.url, response_status: 200})
      expect(ep.got).toHaveLength(1)
      const event = JSON.parse(ep.got[0].body)
      expect(event).toMatchObject({type: 'TEST'})
      expect(event.id).toMatch(/^Webhook:/)
      const ok = verify(
        'sha256',
        Buffer.from(ep.got[0].body),
        {key: createPublicKey(await publicKey()), dsaEncoding: 'der'},
        Buffer.from(ep.got[0].signature, 'base64'),
      )
      expect(ok).toBe(true)
      // with the endpoint configured, trigger sends no body and the contract's operation answers 200
      sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: ep.url})
      const configured = await sbx.run(['webhooks', 'trigger', '--json'])
      expect(configured.code, configured.stderr).toBe(0)
      expect(ep.got).toHaveLength(2)
      expect(
        recordedExchanges()
          .filter((x) => x.path === '/sandbox/webhooks/test')
          .at(-1),
      ).toMatchObject({status: 200, requestBody: undefined})
    } finally {
      sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: null})
      ep.server.close()
    }
  })

  it('retries a failing endpoint with growing delays until it answers 2xx, the same body signed each time', async () => {
    const ep = await endpoint(3)
    try {
      sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: ep.url})
      const event = sbx.emu.webhooks.emit('CUSTOMER.KYC_APPROVED', {id: 'Customer:retry', kycStatus: 'APPROVED'})
      await eventually(() => ep.got.filter((d) => JSON.parse(d.body).id === event.id).length >= 4)
      const mine = ep.got.filter((d) => JSON.parse(d.body).id === event.id)
      expect(new Set(mine.map((d) => d.body)).size).toBe(1)
      // ECDSA signatures are randomised, so each attempt carries a fresh one; every one verifies.
      const key = createPublicKey(await publicKey())
      for (const d of mine)
        expect(
          verify('sha256', Buffer.from(d.body), {key, dsaEncoding: 'der'}, Buffer.from(d.signature, 'base64')),
        ).toBe(true)
      const gaps = mine.slice(1).map((d, i) => d.at - mine[i].at)
      expect(gaps[0]).toBeGreaterThanOrEqual(50) // base 60 ms, then 120, 240
      expect(gaps[1]).toBeGreaterThan(gaps[0])
      expect(gaps[2]).toBeGreaterThan(gaps[1])
      await eventually(() => sbx.emu.db.get<{delivery: string}>('events', event.id)?.delivery === 'delivered')
      const stored = sbx.emu.db.get<{delivery: string; attempts: Array<{status: number}>}>('events', event.id)
      expect(stored?.attempts.map((d) => d.status)).toEqual([500, 500, 500, 200])
    } finally {
      sbx.emu.saveConfig({...sbx.emu.config(), webhookEndpoint: null})
      ep.server.close()
    }
  })

  it('webhooks listen --register receives, verifies and prints events as JSON lines', async () => {
    const {
      stdout: out,
      stderr: err,
      exited,
    } = svcLive(['webhooks', 'listen', '--port', '0', '--register', '--json', '--max-events', '2'], sbx.env)
    await eventually(() => /Listening on/.test(err()))
    // Registering sends a TEST event; this is the second one.
    sbx.emu.webhooks.emit('CUSTOMER.KYC_REJECTED', {id: 'Customer:listen', kycStatus: 'REJECTED'})
    expect(await exited).toBe(0)
    const lines = out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((e) => e.type)).toEqual(['TEST', 'CUSTOMER.KYC_REJECTED'])
    expect(lines[1].data).toEqual({id: 'Customer:listen', kycStatus: 'REJECTED'})
    // The listener is gone: the sandbox no longer posts to it (none was set before).
    expect(sbx.emu.config().webhookEndpoint).toBeNull()
    expect(err()).toContain('The webhook endpoint is cleared again (none was set before)')
  })

  it('webhooks verify checks a saved body and signature: exit 0 when valid, 4 when the body was altered', async () => {
    const ep = await endpoint(0)
    try {
      await sbx.run(['webhooks', 'trigger', '--url', ep.url])
      const body = join(sbx.dir, 'event.json')
      const sig = join(sbx.dir, 'sig.txt')
      writeFileSync(body, ep.got[0].body)
      writeFileSync(sig, ep.got[0].signature + '\n')
      const ok = await sbx.run(['webhooks', 'verify', '--payload', `@${body}`, '--signature', `@${sig}`, '--json'])
      expect(ok.code).toBe(0)
      expect(ok.json()).toMatchObject({valid: true, type: 'TEST'})
      const pem = join(sbx.dir, 'key.pem')
      writeFileSync(pem, sbx.emu.webhookPublicKeyPem)
      const fromStdin = await sbx.run(
        ['webhooks', 'verify', '--payload', '-', '--signature', ep.got[0].signature, '--public-key', pem],
        {input: ep.got[0].body},
      )
      expect(fromStdin.code).toBe(0)
      const tampered = await sbx.run([
        'webhooks',
        'verify',
        '--payload',
        ep.got[0].body.replace('TEST', 'TEXT'),
        '--signature',
        ep.got[0].signature,
        '--public-key',
        pem,
        '--json',
      ])
      expect(tampered.code).toBe(4)
      expect(tampered.json().error.code).toBe('WEBHOOK_SIGNATURE_INVALID')
    } finally {
      ep.server.close()
    }
  })
})
