import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {startProxy, type TestProxy} from '../helpers/proxy.js'
import {individualArgs} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

// A real forward proxy (test/helpers/proxy.ts) in front of a real sandbox: what goes through it,
// what NO_PROXY keeps away from it, and what svc says when it refuses or is not there.

let sbx: TestSandbox
let proxy: TestProxy
let hostPort: string
beforeAll(async () => {
  sbx = await startSandbox()
  proxy = await startProxy()
  hostPort = new URL(sbx.url).host
})
afterAll(async () => {
  await proxy.close()
  await sbx.stop()
})

const customer = (name: string) => individualArgs(name, '--email', 'ada@example.com', '--currency', 'USD')

describe('HTTP_PROXY / HTTPS_PROXY / NO_PROXY, as curl reads them', () => {
  it('HTTP_PROXY: every request goes through the proxy (a CONNECT to the sandbox), and the answers come back', async () => {
    const before = proxy.seen.length
    const created = await sbx.json(customer('Proxied Ada'), {env: {HTTP_PROXY: proxy.url}})
    const got = await sbx.json(['customers', 'get', created.id], {env: {http_proxy: proxy.url}})
    expect(got).toMatchObject({id: created.id, fullName: 'Proxied Ada'})
    // One connection per command (keep-alive within it), each a tunnel to the sandbox.
    expect(proxy.seen.slice(before)).toEqual([{target: hostPort}, {target: hostPort}])
    expect(sbx.emu.db.get('customers', created.id)).toBeTruthy()
  })

  it('the lower-case form wins, as in curl; HTTPS_PROXY does not apply to an http:// URL', async () => {
    const before = proxy.seen.length
    const r = await sbx.run(['customers', 'list', '--limit', '1'], {
      env: {http_proxy: proxy.url, HTTP_PROXY: 'http://127.0.0.1:9'},
    })
    expect(r.code, r.stderr).toBe(0)
    expect(proxy.seen.length).toBe(before + 1)
    const https = await sbx.run(['customers', 'list', '--limit', '1'], {env: {HTTPS_PROXY: 'http://127.0.0.1:9'}})
    expect(https.code, https.stderr).toBe(0)
    expect(proxy.seen.length).toBe(before + 1)
  })

  it('NO_PROXY naming the host (or *, or a CIDR range holding it) bypasses the proxy', async () => {
    const before = proxy.seen.length
    for (const noProxy of ['127.0.0.1', 'example.com, 127.0.0.1', '*', '127.0.0.0/8']) {
      const r = await sbx.run(['customers', 'list', '--limit', '1'], {env: {HTTP_PROXY: proxy.url, NO_PROXY: noProxy}})
      expect(r.code, `${noProxy}: ${r.stderr}`).toBe(0)
    }
    const lower = await sbx.run(['customers', 'list', '--limit', '1'], {
      env: {HTTP_PROXY: proxy.url, no_proxy: '127.0.0.1'},
    })
    expect(lower.code).toBe(0)
    expect(proxy.seen.length).toBe(before)
    // An entry that names another host does not.
    const other = await sbx.run(['customers', 'list', '--limit', '1'], {
      env: {HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.2,localhost'},
    })
    expect(other.code).toBe(0)
    expect(proxy.seen.length).toBe(before + 1)
  })

  it('--debug names the proxy (credentials hidden) or the NO_PROXY entry that bypassed it', async () => {
    const authed = await startProxy({credentials: 'alice:pr0xy-s3cret'})
    const withCreds = authed.url.replace('://', '://alice:pr0xy-s3cret@')
    const r = await sbx.run(['customers', 'list', '--limit', '1', '--debug'], {env: {HTTP_PROXY: withCreds}})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `proxy: ${authed.url.replace('://', '://[REDACTED]@')} (HTTP_PROXY), CONNECT tunnel to ${hostPort}`,
    )
    expect(r.stdout + r.stderr).not.toMatch(/alice|pr0xy-s3cret|Proxy-Authorization/i)
    // The credentials did reach the proxy, as Basic authentication.
    expect(authed.seen).toEqual([
      {target: hostPort, proxyAuthorization: `Basic ${Buffer.from('alice:pr0xy-s3cret').toString('base64')}`},
    ])
    const bypassed = await sbx.run(['customers', 'list', '--limit', '1', '--debug'], {
      env: {HTTP_PROXY: withCreds, NO_PROXY: '127.0.0.1'},
    })
    expect(bypassed.stderr).toMatch(/proxy: none for http:\/\/127\.0\.0\.1:\d+ \(NO_PROXY has "127\.0\.0\.1"\)/)
    expect(bypassed.stderr).not.toMatch(/alice|pr0xy-s3cret/)
    await authed.close()
  })

  it('svc doctor reports the proxy in use, credentials hidden, and its GET /config goes through it', async () => {
    const authed = await startProxy({credentials: 'alice:pr0xy-s3cret'})
    const r = await sbx.run(['doctor', '--json'], {
      env: {HTTP_PROXY: authed.url.replace('://', '://alice:pr0xy-s3cret@'), SVC_SANDBOX_DIR: sbx.dir},
    })
    const checks = Object.fromEntries(r.json().checks.map((c: {name: string}) => [c.name, c]))
    expect(checks.proxy).toEqual({
      name: 'proxy',
      status: 'ok',
      detail: `http://${hostPort} is reached through ${authed.url.replace('://', '://[REDACTED]@')} (HTTP_PROXY, a CONNECT tunnel)`,
    })
    expect(checks.credentials.status).toBe('ok')
    // Every check that asks the sandbox (credentials, webhooks) goes through the proxy, to the sandbox only.
    expect([...new Set(authed.seen.map((s) => s.target))]).toEqual([hostPort])
    expect(r.stdout + r.stderr).not.toMatch(/alice|pr0xy-s3cret/)
    await authed.close()
  })
})

describe('a proxy that refuses, or is not there: exit 9 saying so, nothing sent', () => {
  it('a 403 to CONNECT: PROXY_ERROR naming the proxy, the target and the status; not retried; the sandbox saw nothing', async () => {
    const refusing = await startProxy({refuse: true})
    const requests = sbx.requestCount()
    const r = await sbx.run([...customer('Refused Ada'), '--json'], {env: {HTTP_PROXY: refusing.url}})
    expect(r.code).toBe(9)
    const err = errorOf(r)
    expect(err).toMatchObject({
      code: 'PROXY_ERROR',
      details: {proxy: refusing.url, variable: 'HTTP_PROXY', status: 403, target: hostPort},
    })
    expect(r.json().error.reason).toBe(
      `The proxy ${refusing.url} (HTTP_PROXY) refused to open a tunnel to ${hostPort}: HTTP 403`,
    )
    expect(err.hint).toMatch(/NO_PROXY/)
    expect(refusing.seen.length).toBe(1) // a refusal is the proxy's answer: asking again would get the same
    expect(sbx.requestCount()).toBe(requests)
    await refusing.close()
  })

  it('wrong proxy credentials (407): the hint says where they go; neither user nor password is printed', async () => {
    const authed = await startProxy({credentials: 'alice:right'})
    const r = await sbx.run(['customers', 'list', '--json'], {
      env: {HTTP_PROXY: authed.url.replace('://', '://alice:wr0ng-pass@')},
    })
    expect(r.code).toBe(9)
    expect(errorOf(r)).toMatchObject({code: 'PROXY_ERROR', details: {status: 407}})
    expect(errorOf(r).hint).toMatch(/credentials in HTTP_PROXY/)
    expect(r.stdout + r.stderr).not.toMatch(/alice|wr0ng-pass/)
    await authed.close()
  })

  it('nobody listening at the proxy: "Cannot reach the proxy", not "the sandbox is not running"', async () => {
    const r = await sbx.run(['customers', 'list', '--json'], {env: {HTTP_PROXY: 'http://u:p4ss@127.0.0.1:9'}})
    expect(r.code).toBe(9)
    expect(r.json().error.reason).toBe(
      'Cannot reach the proxy http://[REDACTED]@127.0.0.1:9 (HTTP_PROXY): ECONNREFUSED',
    )
    expect(r.stdout + r.stderr).not.toContain('p4ss')
  })

  it('a proxy variable that is not a usable URL: exit 2 naming the variable, before any request', async () => {
    const requests = sbx.requestCount()
    const socks = await sbx.run(['customers', 'list', '--json'], {env: {HTTP_PROXY: 'socks5://127.0.0.1:1080'}})
    expect(socks.code).toBe(2)
    expect(socks.json().error.reason).toBe(
      'HTTP_PROXY names a socks5 proxy; svc speaks to http:// and https:// proxies only',
    )
    const bad = await sbx.run(['customers', 'list', '--json'], {env: {HTTP_PROXY: 'http://us:s3cr3t@[bad'}})
    expect(bad.code).toBe(2)
    expect(bad.json().error.reason).toBe('HTTP_PROXY is not a proxy URL (http://[REDACTED]@[bad)')
    expect(bad.stdout + bad.stderr).not.toContain('s3cr3t')
    expect(sbx.requestCount()).toBe(requests)
  })
})
