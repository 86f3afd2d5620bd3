import {request} from 'node:http'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const auth = () =>
  'Basic ' + Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')

/** A raw request whose body is written slowly (or never finished), answered with status, headers and body. */
function raw(method: string, path: string, headers: Record<string, string>, body?: {first: Buffer; rest?: Buffer}) {
  return new Promise<{status: number; headers: Record<string, unknown>; body: string; sentAll: boolean}>(
    (resolve, reject) => {
      const u = new URL(sbx.url + path)
      let sentAll = false
      const req = request(u, {method, headers}, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c))
        res.on('end', () => resolve({status: res.statusCode!, headers: res.headers, body: text, sentAll}))
      })
      req.on('error', reject)
      if (!body) return void req.end()
      req.write(body.first)
      if (body.rest)
        setTimeout(() => {
          sentAll = true
          req.end(body.rest)
        }, 300)
    },
  )
}

describe('the sandbox over HTTP', () => {
  it('answers HEAD on GET routes like GET, without a body', async () => {
    const c = await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: 'Head'})
    const get = await raw('GET', `/customers/${c.body.id}`, {authorization: auth()})
    const head = await raw('HEAD', `/customers/${c.body.id}`, {authorization: auth()})
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect((await raw('HEAD', '/customers/Customer:nope', {authorization: auth()})).status).toBe(404)
  })

  it('checks credentials before reading a body: a 10 MB upload without them is refused before it is sent', async () => {
    const r = await raw(
      'POST',
      '/customers',
      {'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024)},
      {first: Buffer.alloc(1024, 0x20), rest: Buffer.alloc(10 * 1024 * 1024 - 1024, 0x20)},
    )
    expect(r.status).toBe(401)
    expect(r.sentAll).toBe(false)
    expect(JSON.parse(r.body)).toMatchObject({code: 'UNAUTHORIZED', details: {}})
  })

  it('refuses a body over the route cap (1 MiB for JSON routes) with 413 and the usual error document, storing nothing', async () => {
    const before = sbx.emu.db.count('customers')
    const big = Buffer.alloc(13 * 1024 * 1024, 0x20)
    const declared = await raw(
      'POST',
      '/customers',
      {authorization: auth(), 'content-type': 'application/json', 'content-length': String(big.length)},
      {first: big.subarray(0, 1024), rest: big.subarray(1024)},
    )
    expect(declared.status).toBe(413)
    expect(declared.sentAll).toBe(false)
    const refusal = JSON.parse(declared.body)
    expect(refusal).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      reason: expect.stringContaining('over'),
      message: refusal.reason,
      details: {limitBytes: 1024 * 1024},
    })
    // chunked, so the size is only known while reading
    const chunked = await raw(
      'POST',
      '/customers',
      {authorization: auth(), 'content-type': 'application/json', 'transfer-encoding': 'chunked'},
      {first: big.subarray(0, 8 * 1024 * 1024), rest: big.subarray(8 * 1024 * 1024)},
    )
    expect(chunked.status).toBe(413)
    expect(sbx.emu.db.count('customers')).toBe(before)
  })

  it('always sends details in error bodies', async () => {
    for (const [method, path] of [
      ['GET', '/customers/Customer:00000000-0000-4000-8000-000000000000'],
      ['GET', '/nope'],
      ['DELETE', '/config'],
    ] as const) {
      const r = await api(sbx, method, path)
      expect(r.status).toBeGreaterThanOrEqual(400)
      // a 405 names the methods the path takes (the Allow header's list)
      expect(r.body.details, `${method} ${path}`).toEqual(r.status === 405 ? {allowed: ['GET', 'HEAD', 'PATCH']} : {})
    }
  })

  it('refuses an exchange rate of 0 (nothing changes) instead of failing the next quote', async () => {
    const before = sbx.emu.config()
    const r = await api(sbx, 'PATCH', '/config', {sandbox: {exchangeRates: {MXN: '0', EUR: '0.000'}}})
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('INVALID_INPUT')
    expect(r.body.details.errors.map((e: {field: string}) => e.field).sort()).toEqual([
      'sandbox.exchangeRates.EUR',
      'sandbox.exchangeRates.MXN',
    ])
    expect(sbx.emu.config()).toEqual(before)
  })

  it('keeps no request log unless asked (the log is for tests)', async () => {
    const {Emulator} = await import('../../src/emulator/emulator.js')
    const {mkdtempSync, rmSync} = await import('node:fs')
    const {tmpdir} = await import('node:os')
    const {join} = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'svc-nolog-'))
    const emu = await Emulator.start({dataDir: dir, port: 0})
    try {
      await fetch(emu.url + '/config', {
        headers: {
          authorization:
            'Basic ' + Buffer.from(`${emu.credentials.tokenId}:${emu.credentials.clientSecret}`).toString('base64'),
        },
      })
      expect(emu.requests).toHaveLength(0)
    } finally {
      await emu.close()
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
