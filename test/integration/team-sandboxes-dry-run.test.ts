import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {API_VERSION} from '../../src/lib/paths.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {removeDir, startMulti, type TestMulti} from '../helpers/multi-sandbox.js'
import {cliEnv} from '../helpers/sandbox.js'

/**
 * The team-sandbox commands' --dry-run, compared with what the team server then receives. They talk
 * to a `serve --multi` server's admin routes, which the dry-run equivalence test's single sandbox does
 * not have: here a recording proxy stands in front of one, and the comparison is the same (method,
 * URL, the headers svc sets, the body byte for byte; the credential aside).
 */
interface Received {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}
let t: TestMulti
let proxy: Server
const seen: Received[] = []
let env: Record<string, string>
/** The admin secret, given to the real runs only: a dry run needs none. */
let admin: Record<string, string>
const OMIT = new Set(['authorization', 'host', 'connection', 'content-length', 'transfer-encoding'])

beforeAll(async () => {
  t = await startMulti()
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
      seen.push({method: req.method!, url: req.url!, headers, body: body.toString('utf8')})
      const {host: _host, connection: _c, 'content-length': _l, ...forward} = headers
      const answer = await fetch(new URL(t.multi.url).origin + req.url!, {
        method: req.method,
        headers: forward,
        body: body.length ? body : undefined,
      })
      res.writeHead(answer.status, {'content-type': answer.headers.get('content-type') ?? 'application/json'})
      res.end(Buffer.from(await answer.arrayBuffer()))
    })
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/${API_VERSION}`
  env = {...cliEnv(url, t.main.tokenId, t.main.clientSecret), SVC_TOKEN_ID: '', SVC_CLIENT_SECRET: ''}
  admin = {SVC_SANDBOX_ADMIN_SECRET: t.multi.admin.clientSecret}
})
afterAll(async () => {
  proxy.close()
  await t.close()
  removeDir(t.dir)
})

interface Printed {
  dryRun: true
  request: {method: string; url: string; headers: Record<string, string>; body?: unknown}
}

async function dryThenReal(args: string[]): Promise<void> {
  const before = seen.length
  const dry = await svc([...args, '--json', '--dry-run'], {env})
  expect(dry.code, dry.stdout + dry.stderr).toBe(0)
  expect(seen.length, 'a dry run sends nothing').toBe(before)
  const printed = dry.json<Printed>().request
  // Redacted, as the real request carries one: a plan of `svc mcp` is bound to this description.
  expect(printed.headers.authorization).toBe('Basic [REDACTED]')
  expect(dry.stdout).not.toContain(t.multi.admin.clientSecret)

  const real = await svc([...args, '--json'], {env: {...env, ...admin}})
  expect(real.code, real.stdout + real.stderr).toBe(0)
  const url = new URL(printed.url)
  const sent = seen.slice(before).filter((r) => r.method === printed.method && r.url === url.pathname + url.search)
  expect(sent.length, `${printed.method} ${url.pathname}${url.search} was not sent`).toBe(1)
  const headers = Object.fromEntries(Object.entries(sent[0].headers).filter(([k]) => !OMIT.has(k)))
  const {authorization: _redacted, ...shown} = printed.headers
  expect(headers).toEqual(shown)
  expect(sent[0].body).toBe(printed.body === undefined ? '' : JSON.stringify(printed.body))
}

describe('team sandbox commands: --dry-run prints the admin request they send', () => {
  it('sandbox create, create --from, reset --name, delete', async () => {
    await dryThenReal(['sandbox', 'create', 'dry-a'])
    await dryThenReal(['sandbox', 'create', 'dry-b', '--from', 'dry-a'])
    await dryThenReal(['sandbox', 'reset', '--name', 'dry-b', '--yes'])
    await dryThenReal(['sandbox', 'delete', 'dry-b', '--yes'])
  })

  it('a local reset has no request to show: --dry-run is refused and wipes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-dry-reset-'))
    writeFileSync(join(dir, 'sandbox.db'), 'state')
    const r = await svc(['sandbox', 'reset', '--data-dir', dir, '--yes', '--dry-run', '--json'], {env})
    expect(r.code).toBe(2)
    expect(r.json().error.reason).toMatch(/the local reset sends none, it deletes files/)
    expect(readFileSync(join(dir, 'sandbox.db'), 'utf8')).toBe('state')
    removeDir(dir)
  })
})
