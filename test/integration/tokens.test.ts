import {readFileSync, statSync} from 'node:fs'
import {request} from 'node:http'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf, type CliResult} from '../helpers/cli.js'
import {api} from '../helpers/money.js'
import {onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let sbx: TestSandbox
let work: string
beforeAll(async () => {
  sbx = await startSandbox()
  work = tempDir('svc-tokens-')
})
afterAll(async () => sbx.stop())

const tokenCount = () => sbx.emu.db.count('apiTokens')

function expectSecretAbsent(r: CliResult, secret: string, label: string) {
  expect(r.stdout.includes(secret), `${label}: secret on stdout`).toBe(false)
  expect(r.stderr.includes(secret), `${label}: secret on stderr`).toBe(false)
}

describe('svc tokens', () => {
  it('journey: create (secret to a 0600 file) -> use it for whoami and a GET -> login takes it -> revoke -> refused (exit 4)', async () => {
    const out = join(work, 'ci.secret')
    const created = await sbx.run([
      'tokens',
      'create',
      '--name',
      'ci',
      '--permission',
      'VIEW',
      '--permission',
      'TRANSACT',
      '--out',
      out,
      '--json',
      '--debug',
    ])
    expect(created.code, created.stderr).toBe(0)
    const token = created.json()
    expect(token).toMatchObject({name: 'ci', permissions: ['VIEW', 'TRANSACT'], secretFile: out})
    expect(token.id).toMatch(/^Token:/)
    expect(token.clientSecret).toBeUndefined()
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const secret = readFileSync(out, 'utf8').trim()
    expect(secret).toMatch(/^sk_tok_[0-9a-f]{48}$/)
    expectSecretAbsent(created, secret, 'create --debug --json --out')
    // The sandbox keeps only a hash of the secret.
    expect(JSON.stringify(sbx.emu.db.get('apiTokens', token.id))).not.toContain(secret)

    const asToken = {SVC_TOKEN_ID: token.clientId, SVC_CLIENT_SECRET: secret}
    const who = await sbx.run(['whoami', '--json'], {env: asToken})
    expect(who.code, who.stderr).toBe(0)
    expect(who.json()).toMatchObject({tokenId: token.clientId, verified: true})
    const list = await sbx.run(['tokens', 'list', '--json'], {env: asToken})
    expect(list.code).toBe(0)
    expect(list.json().data.map((t: {id: string}) => t.id)).toContain(token.id)
    expect(list.stdout).not.toContain(secret)
    const got = await sbx.run(['tokens', 'get', token.id, '--json'])
    expect(got.json()).toMatchObject({id: token.id, clientId: token.clientId})
    expect(got.json().clientSecret).toBeUndefined()

    // svc login takes the new token (secret from stdin) and makes it the active profile.
    const noEnvCreds = {SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined, SVC_BASE_URL: undefined}
    const login = await sbx.run(
      ['login', '--profile', 'ci', '--base-url', sbx.url, '--token-id', token.clientId, '--secret-stdin', '--json'],
      {env: noEnvCreds, input: secret},
    )
    expect(login.code, login.stderr).toBe(0)
    expect(login.json()).toMatchObject({profile: 'ci', tokenId: token.clientId, verified: true})
    expectSecretAbsent(login, secret, 'login')
    const whoProfile = await sbx.run(['whoami', '--json'], {env: noEnvCreds})
    expect(whoProfile.json()).toMatchObject({
      profile: 'ci',
      tokenId: token.clientId,
      credentials: 'stored',
      verified: true,
    })

    const revoked = await sbx.run(['tokens', 'revoke', token.id, '--yes', '--json'])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.json()).toEqual({revoked: token.id})
    expect(sbx.emu.db.get('apiTokens', token.id)).toBeUndefined()

    const refused = await sbx.run(['whoami', '--json'], {env: noEnvCreds})
    expect(refused.code).toBe(4)
    expect(errorOf(refused)).toMatchObject({status: 401, code: 'UNAUTHORIZED'})
    expect(errorOf(refused).hint).toMatch(/token id .* and client secret/)
    expect(errorOf(refused).details.secretFrom).toBe('stored')
    const refusedGet = await sbx.run(['customers', 'list', '--json'], {env: asToken})
    expect(refusedGet.code).toBe(4)
  })

  it('--show-secret puts the secret in --json on stdout only, once; without a safe place it refuses before any request', async () => {
    const shown = await sbx.run([
      'tokens',
      'create',
      '--name',
      'shown',
      '--permission',
      'MANAGE',
      '--show-secret',
      '--json',
      '--debug',
    ])
    expect(shown.code, shown.stderr).toBe(0)
    const body = shown.json()
    expect(body.clientSecret).toMatch(/^sk_tok_/)
    expect(shown.stdout.split(body.clientSecret).length - 1).toBe(1)
    expect(shown.stderr).not.toContain(body.clientSecret)
    expect(shown.stderr).toContain('[REDACTED]') // the --debug trace of the answer hides it

    const before = {requests: sbx.requestCount(), tokens: tokenCount()}
    const cases: Array<[string[], RegExp]> = [
      [['tokens', 'create', '--name', 'x', '--permission', 'VIEW', '--json'], /shown only once/],
      [['tokens', 'create', '--name', 'x', '--permission', 'VIEW'], /shown only once/], // piped stdout is no terminal
      [['tokens', 'create', '--name', 'x', '--permission', 'ADMIN', '--json'], /--permission/],
      [['tokens', 'create', '--name', ' ', '--permission', 'VIEW', '--out', join(work, 'n'), '--json'], /name/],
      [
        ['tokens', 'create', '--name', 'x', '--permission', 'VIEW', '--out', join(work, 'ci.secret'), '--json'],
        /exists already/,
      ],
      [
        [
          'tokens',
          'create',
          '--name',
          'x',
          '--permission',
          'VIEW',
          '--out',
          join(work, 'a'),
          '--show-secret',
          '--json',
        ],
        /cannot be used together/,
      ],
      [['tokens', 'get', 'Customer:abc', '--json'], /Token id/],
      [['tokens', 'revoke', 'nope', '--yes', '--json'], /Token id/],
    ]
    for (const [args, message] of cases) {
      const r = await sbx.run(args)
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2)
      if (!args.includes('--json')) {
        expect(r.stdout).toBe('')
        expect(r.stderr).toMatch(message)
        expect(r.stderr).toMatch(/Hint: Use --out <file>/)
        continue
      }
      const e = errorOf(r)
      expect(e.status).toBeNull()
      expect(JSON.stringify(e), args.join(' ')).toMatch(message)
    }
    expect(sbx.requestCount()).toBe(before.requests)
    expect(tokenCount()).toBe(before.tokens)
  })

  it('on a terminal, with no --out or --show-secret, the secret is shown there once, after a warning', async () => {
    const {out, code} = await onTerminal(['tokens', 'create', '--name', 'tty', '--permission', 'VIEW'], {env: sbx.env})
    expect(code, out).toBe(0)
    const secrets = out.match(/sk_tok_[0-9a-f]{48}/g) ?? []
    expect(secrets).toHaveLength(1)
    expect(out).toMatch(/shown once and cannot be retrieved again/)
    const id = /Created (Token:[\w-]+)/.exec(out)![1]
    expect(sbx.emu.db.get<{name: string}>('apiTokens', id)!.name).toBe('tty')
  })

  it('refusals from the sandbox: unknown token (exit 5), VIEW-only token writing (403, exit 4); state unchanged', async () => {
    const missing = await sbx.run(['tokens', 'get', 'Token:00000000-0000-0000-0000-000000000000', '--json'])
    expect(missing.code).toBe(5)
    expect(errorOf(missing)).toMatchObject({status: 404, code: 'TOKEN_NOT_FOUND', hint: 'Check the API token id.'})
    const revokeMissing = await sbx.run([
      'tokens',
      'revoke',
      'Token:00000000-0000-0000-0000-000000000000',
      '--yes',
      '--json',
    ])
    expect(revokeMissing.code).toBe(5)

    const out = join(work, 'view.secret')
    const view = (
      await sbx.run(['tokens', 'create', '--name', 'reader', '--permission', 'VIEW', '--out', out, '--json'])
    ).json()
    const asReader = {SVC_TOKEN_ID: view.clientId, SVC_CLIENT_SECRET: readFileSync(out, 'utf8').trim()}
    const tokens = tokenCount()
    const write = await sbx.run(
      ['tokens', 'create', '--name', 'escalate', '--permission', 'MANAGE', '--show-secret', '--json'],
      {env: asReader},
    )
    expect(write.code).toBe(4)
    expect(errorOf(write)).toMatchObject({status: 403, code: 'FORBIDDEN'})
    expect(errorOf(write).hint).toMatch(/permission/)
    expect(tokenCount()).toBe(tokens)
    expect((await sbx.run(['tokens', 'list', '--json'], {env: asReader})).code).toBe(0)
  })
})

describe('a token deleted mid-request (issue 29 F12)', () => {
  it('a write whose body was still arriving when its token was deleted is refused at its commit (401), and writes nothing', async () => {
    const made = await api(sbx, 'POST', '/tokens', {name: 'slow-writer', permissions: ['MANAGE']})
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const auth = Buffer.from(`${made.body.clientId}:${made.body.clientSecret}`).toString('base64')
    const body = JSON.stringify({customerType: 'INDIVIDUAL', fullName: 'Slow Body'})
    const customers = sbx.emu.db.count('customers')
    const url = new URL(`${sbx.url}/customers`)
    const answer = new Promise<{status: number; body: string}>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {authorization: `Basic ${auth}`, 'content-type': 'application/json', 'content-length': body.length},
        },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => resolve({status: res.statusCode!, body: text}))
        },
      )
      req.on('error', reject)
      // Half the body now (the credentials are checked on the headers), the rest once the token is gone.
      req.write(body.slice(0, 10))
      setTimeout(async () => {
        expect((await api(sbx, 'DELETE', `/tokens/${made.body.id}`)).status).toBe(204)
        req.end(body.slice(10))
      }, 300)
    })
    const r = await answer
    expect(r.status).toBe(401)
    expect(JSON.parse(r.body)).toMatchObject({code: 'UNAUTHORIZED'})
    expect(sbx.emu.db.count('customers')).toBe(customers)
  })
})
