import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:https'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {issueServerCert, makeCa} from '../../src/emulator/tls/x509.js'
import {errorOf, svc as svcBinary} from '../helpers/cli.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startProxy} from '../helpers/proxy.js'
import {startSandbox} from '../helpers/sandbox.js'
import {closeBeforeRemoval, tempDir} from '../helpers/temp-dirs.js'

// Commands run in-process (run-command.ts) against the detached server, except where Node's own start-up reads the CA.
// `svc sandbox serve --tls` as an operator runs it, and svc's trust: the local profile trusts its own
// sandbox's CA; anything else must be given the CA, and a certificate problem is exit 9 with the fix.

const home = tempDir('svc-tls-home-')
const env = {
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_DATA_DIR: join(home, 'data'),
  HOME: home,
  CI: '1',
  SVC_NO_INPUT: '1',
  NO_COLOR: '1',
}
const sandboxDir = join(home, 'data', 'sandbox')
let ready: {url: string; tokenId: string; clientSecret: string; caFile: string; pid: number}

/** The sandbox as seen from elsewhere: its URL and credentials, but not its data dir (so not its CA). */
const remote = (extra: Record<string, string> = {}) => ({
  ...env,
  SVC_SANDBOX_DIR: join(home, 'elsewhere'),
  SVC_BASE_URL: ready.url,
  SVC_TOKEN_ID: ready.tokenId,
  SVC_CLIENT_SECRET: ready.clientSecret,
  SVC_ENVIRONMENT: 'sandbox',
  ...extra,
})

beforeAll(async () => {
  const r = await svc(['sandbox', 'serve', '--tls', '--detach', '--port', '0', '--json'], {env})
  expect(r.code, r.stderr).toBe(0)
  ready = r.json()
  closeBeforeRemoval(async () => void (await svc(['sandbox', 'stop'], {env})))
}, 30_000)
afterAll(async () => {
  await svc(['sandbox', 'stop'], {env})
})

describe('svc sandbox serve --tls', () => {
  it('serves HTTPS from a CA made on first start; the ready line names it as caFile; CA and keys are 0600', () => {
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
    expect(ready.caFile).toBe(join(sandboxDir, 'tls', 'ca.pem'))
    for (const f of ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'])
      expect((statSync(join(sandboxDir, 'tls', f)).mode & 0o777).toString(8), f).toBe('600')
    expect((statSync(join(sandboxDir, 'tls')).mode & 0o777).toString(8)).toBe('700')
  })

  it("the quick start's core runs against it as printed: whoami, customers create, list, get", async () => {
    const who = await svc(['whoami', '--json'], {env})
    expect(who.code, who.stderr).toBe(0)
    expect(who.json()).toMatchObject({profile: 'local', baseUrl: ready.url, verified: true})
    const created = await svc(
      [
        'customers',
        'create',
        '--type',
        'individual',
        '--full-name',
        'Ada Lovelace',
        '--email',
        'ada@example.com',
        '--currency',
        'USD',
        '--json',
      ],
      {env},
    )
    expect(created.code, created.stderr).toBe(0)
    const id = created.json().id as string
    const list = await svc(['customers', 'list'], {env})
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(id)
    const got = await svc(['customers', 'get', id, '--json'], {env})
    expect(got.json()).toMatchObject({id, fullName: 'Ada Lovelace'})
  })

  it('--debug traces the TLS session (protocol, certificate, the CA trusted) and no secret', async () => {
    const r = await svc(['customers', 'list', '--debug'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      /TLS TLSv1\.3 \S+; certificate CN=svc local sandbox issued by CN=svc local sandbox CA; for IP Address:127\.0\.0\.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1; valid until \d{4}-\d\d-\d\dT[\d:.]+Z; trusted by the system's CAs and .*ca\.pem \(the local sandbox\)/,
    )
    const keys = ['ca-key.pem', 'server-key.pem'].map((f) => readFileSync(join(sandboxDir, 'tls', f), 'utf8'))
    const keyBody = (pem: string) => pem.split('\n')[1]!
    for (const secret of [ready.clientSecret, ...keys.map(keyBody), 'PRIVATE KEY'])
      expect(r.stdout + r.stderr).not.toContain(secret)
  })

  it('through a proxy: HTTPS_PROXY carries the TLS session in a CONNECT tunnel, and the certificate is still checked', async () => {
    const proxy = await startProxy()
    const host = new URL(ready.url).host
    const r = await svc(['customers', 'list', '--debug'], {env: {...env, HTTPS_PROXY: proxy.url}})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/TLS TLSv1\.3 .*\(the local sandbox\)/)
    const untrusted = await svc(['customers', 'list', '--json'], {env: remote({HTTPS_PROXY: proxy.url})})
    expect(untrusted.code).toBe(9)
    expect(errorOf(untrusted)).toMatchObject({code: 'TLS_ERROR', details: {problem: 'untrusted'}})
    expect(proxy.seen).toEqual([{target: host}, {target: host}])
    await proxy.close()
  })

  it('a restart keeps the CA (what was trusted stays trusted)', async () => {
    const ca = readFileSync(ready.caFile, 'utf8')
    expect((await svc(['sandbox', 'stop'], {env})).code).toBe(0)
    const again = await svc(['sandbox', 'serve', '--tls', '--detach', '--port', '0', '--json'], {env})
    expect(again.code, again.stderr).toBe(0)
    ready = again.json()
    expect(readFileSync(ready.caFile, 'utf8')).toBe(ca)
    expect((await svc(['whoami'], {env})).code).toBe(0)
  }, 30_000)
})

describe("trusting a CA: --ca-file, SVC_CA_FILE, NODE_EXTRA_CA_CERTS, a profile's caFile", () => {
  it('an untrusted CA: exit 9, TLS_ERROR "untrusted" with the options that fix it; never a bare OpenSSL code', async () => {
    const r = await svc(['customers', 'list'], {env: remote()})
    expect(r.code).toBe(9)
    expect(r.stderr).toContain(
      `Error: The certificate of ${new URL(ready.url).host} is not trusted: no trusted CA issued it`,
    )
    expect(r.stderr).toMatch(
      /Hint: .*--ca-file <ca\.pem> \(or SVC_CA_FILE, or NODE_EXTRA_CA_CERTS\).*svc login --ca-file/,
    )
    expect(r.stderr).not.toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
    const json = await svc(['customers', 'list', '--json'], {env: remote()})
    expect(errorOf(json)).toMatchObject({
      code: 'TLS_ERROR',
      details: {problem: 'untrusted', tlsCode: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'},
    })
  })

  it('the wrong CA given: says which file was trusted and that it did not issue the certificate', async () => {
    const other = join(tempDir('svc-ca-'), 'other-ca.pem')
    writeFileSync(other, makeCa({commonName: 'other', ...days(-1, 10)}).cert)
    const r = await svc(['customers', 'list', '--json', '--ca-file', other], {env: remote()})
    expect(r.code).toBe(9)
    expect(errorOf(r)).toMatchObject({details: {problem: 'untrusted', caFile: other, caFrom: '--ca-file'}})
    expect(errorOf(r).hint).toBe(
      `${other} (--ca-file) is not the CA that issued this certificate: point --ca-file (or SVC_CA_FILE) at the one that did.`,
    )
  })

  it('each way of giving the CA works', async () => {
    for (const [args, extra] of [
      [['--ca-file', ready.caFile], {}],
      [[], {SVC_CA_FILE: ready.caFile}],
      [[], {NODE_EXTRA_CA_CERTS: ready.caFile}],
    ] as const) {
      // Node reads NODE_EXTRA_CA_CERTS when a process starts: that way needs a process of its own.
      const run = 'NODE_EXTRA_CA_CERTS' in extra ? svcBinary : svc
      const r = await run(['customers', 'list', '--json', ...args], {env: remote(extra)})
      expect(r.code, `${JSON.stringify(extra)} ${r.stderr}`).toBe(0)
    }
    const missing = await svc(['customers', 'list', '--json', '--ca-file', join(home, 'nope.pem')], {env: remote()})
    expect(missing.code).toBe(2)
    expect(errorOf(missing).code).toBe('USAGE')
  })

  it('svc login --ca-file keeps the CA in the profile: later commands trust it without the flag', async () => {
    const cfg = {...remote(), SVC_BASE_URL: undefined, SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined}
    const login = await svc(
      [
        'login',
        '--profile',
        'tls',
        '--environment',
        'sandbox',
        '--base-url',
        ready.url,
        '--token-id',
        ready.tokenId,
        '--secret-stdin',
        '--ca-file',
        ready.caFile,
        '--json',
      ],
      {env: cfg, input: ready.clientSecret},
    )
    expect(login.code, login.stderr).toBe(0)
    expect(login.json()).toMatchObject({profile: 'tls', caFile: ready.caFile, verified: true})
    const list = await svc(['customers', 'list', '--json', '--profile', 'tls'], {env: cfg})
    expect(list.code, list.stderr).toBe(0)
    const doctor = await svc(['doctor', '--json', '--profile', 'tls'], {env: cfg})
    const tls = doctor.json().checks.find((c: {name: string}) => c.name === 'tls')
    expect(tls).toEqual({
      name: 'tls',
      status: 'ok',
      detail: `certificates checked against the system's CAs and ${ready.caFile} (profile tls)`,
    })
  })
})

describe('certificate problems a server can have', () => {
  const ca = makeCa({commonName: 'test CA', ...days(-30, 3650)})
  const caFile = join(tempDir('svc-ca-'), 'ca.pem')

  /** An HTTPS server on loopback with this certificate, answering every request with an empty list. */
  async function serveWith(cert: {cert: string; key: string}): Promise<string> {
    const server = createServer(cert, (_req, res) =>
      res.writeHead(200, {'content-type': 'application/json'}).end('{"data":[],"hasMore":false}'),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closeBeforeRemoval(() => new Promise<void>((resolve) => server.close(() => resolve())))
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`
  }
  const run = (url: string) =>
    svc(['customers', 'list', '--json', '--ca-file', caFile], {
      env: {...env, SVC_BASE_URL: url, SVC_TOKEN_ID: 't', SVC_CLIENT_SECRET: 's', SVC_ENVIRONMENT: 'sandbox'},
    })

  beforeAll(async () => {
    writeFileSync(caFile, ca.cert)
  })

  it('expired: exit 9, problem "expired", the server must renew it or the clock is wrong', async () => {
    const url = await serveWith(issueServerCert(ca, ['127.0.0.1'], {commonName: 'old', ...days(-400, -1)}))
    const r = await run(url)
    expect(r.code).toBe(9)
    expect(errorOf(r)).toMatchObject({code: 'TLS_ERROR', details: {problem: 'expired', tlsCode: 'CERT_HAS_EXPIRED'}})
    expect(r.json().error.reason).toMatch(/^The certificate of 127\.0\.0\.1:\d+ has expired/)
    expect(errorOf(r).hint).toMatch(/renew.*clock/)
  })

  it('wrong host: exit 9, problem "wrong host", the names it does cover and the --base-url that would work', async () => {
    const url = await serveWith(issueServerCert(ca, ['api.example.test'], {commonName: 'api', ...days(-1, 30)}))
    const r = await run(url)
    expect(r.code).toBe(9)
    expect(errorOf(r)).toMatchObject({code: 'TLS_ERROR', details: {problem: 'wrong host'}})
    expect(r.json().error.reason).toMatch(
      /^The certificate of 127\.0\.0\.1:\d+ is for another host: it names api\.example\.test$/,
    )
    expect(errorOf(r).hint).toMatch(
      /--base-url \(or SVC_BASE_URL\) whose host the certificate names \(api\.example\.test\)/,
    )
  })

  it('https:// to a server that speaks plain HTTP: exit 9, problem "not TLS", use http://', async () => {
    const plain = await startSandbox()
    const r = await run(plain.url.replace('http:', 'https:'))
    expect(r.code).toBe(9)
    expect(r.json().error.reason).toMatch(/^127\.0\.0\.1:\d+ does not speak TLS \(wrong version number\)$/)
    expect(errorOf(r)).toMatchObject({details: {problem: 'not TLS', tlsCode: 'ERR_SSL_WRONG_VERSION_NUMBER'}})
    expect(errorOf(r).hint).toMatch(/^Use http:\/\/ in --base-url/)
  })

  it('a good certificate from the same CA is accepted (the two above fail for their own reason only)', async () => {
    const url = await serveWith(issueServerCert(ca, ['127.0.0.1'], {commonName: 'ok', ...days(-1, 30)}))
    const r = await run(url)
    expect(r.code, r.stdout + r.stderr).toBe(0)
  })
})

function days(from: number, to: number): {notBefore: Date; notAfter: Date} {
  const DAY = 86_400_000
  return {notBefore: new Date(Date.now() + from * DAY), notAfter: new Date(Date.now() + to * DAY)}
}
