// Issue 32's first-day papercuts, each through the real command: what the user sees (stdout, stderr,
// exit code) and what the sandbox holds afterwards.
import {createServer, type Server} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf, svc} from '../helpers/cli.js'
import {call} from '../helpers/principals.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let sbx: TestSandbox
let basic: string
beforeAll(async () => {
  sbx = await startSandbox()
  basic = `Basic ${Buffer.from(`${sbx.emu.credentials.tokenId}:${sbx.emu.credentials.clientSecret}`).toString('base64')}`
})

describe('P3: `sandbox serve --detach` on a taken port', () => {
  let taken: Server
  let port: number
  beforeAll(async () => {
    taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    port = (taken.address() as {port: number}).port
  })
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())))

  it('says the port is in use, with the hint, and exits 2 (usage) as a foreground serve does', async () => {
    const home = tempDir('svc-p3-')
    const args = ['sandbox', 'serve', '--detach', '--port', String(port), '--data-dir', `${home}/sandbox`]
    const r = await svc(args, {env: {HOME: home, SVC_NO_INPUT: '1', NO_COLOR: '1'}})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`Port ${port} is in use`)
    expect(r.stderr).toContain('pick another --port')
    expect(r.stderr).not.toContain('unexpected ready line')
    const json = await svc([...args, '--json'], {env: {HOME: home, SVC_NO_INPUT: '1'}})
    expect(json.code).toBe(2)
    expect(errorOf(json)).toMatchObject({code: 'USAGE', hint: expect.stringContaining('--port')})
  })
})

describe('P4: a currency that does not exist', () => {
  it('is refused by the CLI before any request, naming the flag value and the known codes', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run([
      'customers',
      'create',
      '--type',
      'individual',
      '--full-name',
      'Ada',
      '--email',
      'ada@example.com',
      '--currency',
      'XYZ',
      '--json',
    ])
    expect(r.code).toBe(2)
    const error = errorOf(r)
    expect(JSON.stringify(error.details)).toContain('unknown currency')
    expect(JSON.stringify(error.details)).toContain('USDC')
    expect(sbx.requestCount()).toBe(before)
  })

  it('is refused by the sandbox, which creates nothing', async () => {
    const count = async () => (await call(sbx, basic, 'GET', '/customers?limit=100')).body.data.length
    const before = await count()
    const r = await call(sbx, basic, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada',
      currencies: ['USD', 'XYZ'],
    })
    expect(r.status).toBe(400)
    expect(JSON.stringify(r.body)).toContain('currencies')
    expect(JSON.stringify(r.body)).toContain('unknown currency')
    expect(await count()).toBe(before)
  })
})
