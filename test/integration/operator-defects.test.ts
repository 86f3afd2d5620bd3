// issue 21, operator defects 1-6 and 8: each driven through the built `svc` as a user or a script
// runs it, asserting what they see (stdout, stderr, exit code) and the sandbox's state.
import {spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {loginArgs} from '../helpers/cli.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {fundedPayer} from '../helpers/money.js'
import {BIN} from '../helpers/process-sandbox.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {individualArgs} from '../helpers/kyc.js'

const work = mkdtempSync(join(tmpdir(), 'svc-ops-'))
/** A fresh user: own config and data dirs, nothing started, no SVC_* credentials. */
function freshUser(name: string): Record<string, string> {
  const home = join(work, name)
  mkdirSync(home, {recursive: true})
  return {HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_DATA_DIR: join(home, 'data'), NO_COLOR: '1', CI: '1'}
}
/** `svc` on PATH as a shell sees it, for examples run as printed. */
const shimDir = join(work, 'bin')
mkdirSync(shimDir)
writeFileSync(join(shimDir, 'svc'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`)
chmodSync(join(shimDir, 'svc'), 0o755)
const hasJq = spawnSync('sh', ['-c', 'command -v jq']).status === 0

function sh(script: string, env: Record<string, string>, timeoutMs = 20_000) {
  const r = spawnSync('sh', ['-c', script], {
    env: {...env, PATH: `${shimDir}:${process.env.PATH}`},
    encoding: 'utf8',
    timeout: timeoutMs,
  })
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    timedOut: r.error !== undefined || r.signal !== null,
  }
}

/** Detached sandboxes started here, stopped at the end whatever happened. */
const detached: Array<Record<string, string>> = []
afterAll(async () => {
  for (const env of detached) {
    await svc(['sandbox', 'stop'], {env})
    const pid = join(env.SVC_DATA_DIR, 'sandbox', 'sandbox.pid')
    if (existsSync(pid)) {
      try {
        process.kill(Number(readFileSync(pid, 'utf8')), 'SIGKILL')
      } catch {}
    }
  }
  rmSync(work, {recursive: true, force: true})
})

let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox({paymentCompletionDelayMs: 50})
})
afterAll(async () => sbx?.stop())

describe('1. the local profile follows the port the running sandbox recorded', () => {
  it('`sandbox serve --detach --port 0`, then whoami, doctor and a command use that URL; once stopped, the default address again', async () => {
    const env = freshUser('port0')
    detached.push(env)
    const started = await svc(['sandbox', 'serve', '--detach', '--port', '0', '--json'], {env})
    expect(started.code, started.stderr).toBe(0)
    const ready = started.json()
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
    expect(ready.url).not.toContain(':4010/')

    const who = await svc(['whoami', '--json'], {env})
    expect(who.code, who.stderr).toBe(0)
    expect(who.json()).toMatchObject({
      profile: 'local',
      baseUrl: ready.url,
      baseUrlFrom: 'running sandbox',
      tokenId: ready.tokenId,
      verified: true,
    })
    const human = await svc(['whoami'], {env})
    expect(human.stdout).toMatch(new RegExp(`baseUrl +${ready.url.replaceAll('.', '\\.')} \\(from running sandbox\\)`))

    const doctor = await svc(['doctor', '--json'], {env})
    const checks = Object.fromEntries(
      (doctor.json().checks as Array<{name: string; status: string; detail: string}>).map((c) => [c.name, c]),
    )
    expect(checks.credentials.status).toBe('ok')
    expect(checks['local sandbox']).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(`running at ${new URL(ready.url).origin}`),
    })

    const created = await svc(individualArgs('Port Zero', '--json'), {
      env,
    })
    expect(created.code, created.stderr).toBe(0)
    expect(created.json().id).toMatch(/^Customer:/)

    // An explicit URL still wins over the recorded one (flag > env > profile).
    const pinned = await svc(['whoami', '--no-verify', '--json'], {
      env: {...env, SVC_BASE_URL: 'http://127.0.0.1:4999'},
    })
    expect(pinned.json()).toMatchObject({baseUrl: 'http://127.0.0.1:4999/2025-10-13', baseUrlFrom: 'SVC_BASE_URL'})

    const stopped = await svc(['sandbox', 'stop'], {env})
    expect(stopped.code, stopped.stderr).toBe(0)
    const after = await svc(['whoami', '--no-verify', '--json'], {env})
    expect(after.json()).toMatchObject({baseUrl: 'http://127.0.0.1:4010/2025-10-13', baseUrlFrom: 'profile'})
  })
})

describe('2. a --json failure keeps its document on stdout and says it on stderr', () => {
  it('no sandbox: the error document on stdout, its one line on stderr; a `| jq` pipeline still shows it', async () => {
    const env = freshUser('json-fail')
    const r = await svc(individualArgs('Ada', '--json'), {env})
    expect(r.code).toBe(9)
    expect(r.json().error).toMatchObject({
      code: 'NETWORK_ERROR',
      status: null,
      reason: expect.stringMatching(/^The local sandbox is not running at http:\/\/127\.0\.0\.1:4010/),
    })
    expect(r.stderr.trim().split('\n')).toEqual([`Error: ${r.json().error.reason} (NETWORK_ERROR)`])

    if (!hasJq) return
    const piped = sh(
      `id=$(svc customers create --type individual --full-name Ada --json | jq -r .id); echo "id=$id"`,
      env,
    )
    expect(piped.stdout).toBe('id=null\n')
    expect(piped.stderr).toMatch(
      /^Error: The local sandbox is not running at http:\/\/127\.0\.0\.1:4010 .*\(NETWORK_ERROR\)$/m,
    )
  })

  it('an API refusal under --json: the same document, the same one line', async () => {
    const r = await svc(['customers', 'get', 'Customer:00000000-0000-4000-8000-000000000000', '--json'], {env: sbx.env})
    expect(r.code).toBe(5)
    expect(r.json().error).toMatchObject({status: 404, code: 'USER_NOT_FOUND'})
    expect(r.stderr).toBe(`Error: ${r.json().error.reason} (USER_NOT_FOUND, HTTP 404)\n`)
  })
})

describe('3. off a terminal (CI=true), every missing flag is named by its flag, all at once, before any request', () => {
  const cases: Array<[string, string[], string]> = [
    [
      'customers create --type business',
      ['customers', 'create', '--type', 'business'],
      'Missing flags: --legal-name, --country, --incorporated-on, --tax-id',
    ],
    [
      'customers create, two of four given',
      ['customers', 'create', '--type', 'business', '--legal-name', 'Acme LLC', '--tax-id', '12-3456789'],
      'Missing flags: --country, --incorporated-on',
    ],
    [
      'kyc owners add',
      ['kyc', 'owners', 'add', 'Customer:00000000-0000-4000-8000-000000000000', '--first-name', 'Ana'],
      'Missing flags: --role, --ownership, --last-name, --birth-date, --nationality, --address-line1, --address-postal-code, --address-country, --id-type, --identifier',
    ],
    ['quote create', ['quote', 'create'], 'Missing flags: --from, --to, --send'],
    [
      'quote create --realtime',
      ['quote', 'create', '--realtime', '--send', '10'],
      'Missing flags: --customer, --currency, --to',
    ],
    ['cards issue', ['cards', 'issue'], 'Missing flags: --account, --customer'],
  ]
  for (const [name, args, reason] of cases) {
    it(`${name}: exit 2, "${reason}"`, async () => {
      const before = sbx.requestCount()
      const r = await svc([...args, '--json'], {env: {...sbx.env, CI: 'true'}})
      expect(r.code, r.stderr).toBe(2)
      expect(r.json().error.reason).toBe(reason)
      const flags = reason.replace(/^Missing flags?: /, '').split(', ')
      expect(r.json().error.details.errors).toEqual(flags.map((field) => ({field, message: 'is required'})))
      expect(r.stderr).toBe(`Error: ${reason} (INVALID_INPUT)\n`)
      expect(sbx.requestCount()).toBe(before)
    })
  }

  it('without --json a person reads the same list, one flag a line', async () => {
    const r = await svc(['cards', 'issue'], {env: {...sbx.env, CI: 'true'}})
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: Missing flags: --account, --customer (INVALID_INPUT)\n  - --account: is required\n  - --customer: is required\nHint: See `svc cards issue --help` for the flags; nothing was sent.\n',
    )
    expect(r.stderr).not.toContain('Missing required flag')
  })

  it('a given value that is wrong is still named by its field, after the missing flags', async () => {
    const r = await svc(
      [
        'customers',
        'create',
        '--type',
        'business',
        '--legal-name',
        'Acme',
        '--country',
        'US',
        '--tax-id',
        '123',
        '--json',
      ],
      {env: {...sbx.env, CI: 'true'}},
    )
    expect(r.code).toBe(2)
    expect(r.json().error.reason).toBe('Missing flag: --incorporated-on; invalid: businessInfo.taxId')
  })
})

describe('4. every customer has a fiat internal account; adding a currency adds its account', () => {
  const accountsOf = async (id: string) => {
    const r = await svc(['accounts', 'internal', 'list', '--customer', id, '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    return (r.json().data as Array<{type: string; balance: {currency: {code: string}}}>)
      .map((a) => `${a.type} ${a.balance.currency.code}`)
      .sort()
  }

  it('created without --currency: an INTERNAL_FIAT USD account (the platform currency) beside the embedded wallet', async () => {
    const c = await svc(individualArgs('No Currency', '--json'), {
      env: sbx.env,
    })
    expect(c.code, c.stderr).toBe(0)
    expect(await accountsOf(c.json().id)).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_FIAT USD'])
  })

  it('`customers update --currency USD --currency EUR` creates the EUR account (once), keeps USD, and no account-creation webhook exists to send', async () => {
    const id = (await svc(individualArgs('Adds Euro', '--currency', 'USD', '--json'), {env: sbx.env})).json().id
    const events = () => sbx.emu.db.all<{event: {type: string}}>('events').map((e) => e.event.type)
    const before = events().length
    const upd = await svc(['customers', 'update', id, '--currency', 'USD', '--currency', 'EUR', '--json'], {
      env: sbx.env,
    })
    expect(upd.code, upd.stderr).toBe(0)
    expect(upd.json().currencies).toEqual(['USD', 'EUR'])
    expect(await accountsOf(id)).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD'])
    // The same list again changes nothing: no second EUR account.
    await svc(['customers', 'update', id, '--currency', 'USD', '--currency', 'EUR', '--json'], {env: sbx.env})
    expect(await accountsOf(id)).toEqual(['EMBEDDED_WALLET USDB', 'INTERNAL_FIAT EUR', 'INTERNAL_FIAT USD'])
    expect(
      events()
        .slice(before)
        .filter((t) => t.startsWith('INTERNAL_ACCOUNT.')),
    ).toEqual([])
  })
})

describe('5. flow capture of a customer approved under skipVerificationPaperwork replays with flow run --local', () => {
  it('the captured flow sets the setting in its sandbox: block, submits nothing, and passes', async () => {
    const a = await startSandbox({skipVerificationPaperwork: true, decisionDelayMs: 50})
    try {
      const c = await svc(
        individualArgs('Grace Hopper', '--email', 'grace@example.com', '--currency', 'USD', '--json'),
        {env: a.env},
      )
      const id = c.json().id
      expect((await svc(['kyc', 'wait', id, '--json'], {env: a.env})).json().kycStatus).toBe('APPROVED')
      const env = freshUser('capture')
      const login = await svc(
        loginArgs('journey', a.url, a.emu.credentials.tokenId, '--environment', 'sandbox', '--json'),
        {env, input: a.emu.credentials.clientSecret},
      )
      expect(login.code, login.stderr).toBe(0)
      const file = join(work, 'journey.yaml')
      const cap = await svc(['flow', 'capture', id, '--from-profile', 'journey', '--out', file, '--json'], {env})
      expect(cap.code, cap.stderr).toBe(0)
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('sandbox:\n  skipVerificationPaperwork: true\n')
      expect(text).toContain('decided at creation, as the sandbox does under skipVerificationPaperwork')
      expect(text).not.toContain('kyc, submit')
      expect(text).not.toContain('Grace')
      const run = await svc(['flow', 'run', file, '--local'], {env, timeoutMs: 60_000})
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(run.stdout + run.stderr).toMatch(/ok +\[2\/\d+\] the decision lands: APPROVED/)
      expect(run.stdout + run.stderr).toMatch(/PASS Captured Customer:\S+: (\d+)\/\1 steps/)
    } finally {
      await a.stop()
    }
  }, 60_000)
})

describe('6. the `sandbox serve --help` example, run as printed', () => {
  it.skipIf(!hasJq)(
    'eval "$(svc sandbox serve --detach --port 0 --json | jq ...)" returns, and exports a working URL and credentials',
    async () => {
      const help = await svc(['sandbox', 'serve', '--help'])
      const example = help.stdout
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l.startsWith('eval '))!
      expect(example).toContain('--detach')
      const env = freshUser('example')
      detached.push(env)
      const started = Date.now()
      const r = sh(`${example}\necho "url=$SVC_BASE_URL"\nsvc whoami --json`, env)
      expect(r.timedOut, r.stderr).toBe(false)
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(r.code, r.stderr).toBe(0)
      const url = /^url=(http:\/\/127\.0\.0\.1:\d+\/2025-10-13)$/m.exec(r.stdout)![1]
      const who = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))
      expect(who).toMatchObject({
        baseUrl: url,
        baseUrlFrom: 'SVC_BASE_URL',
        credentials: 'SVC_CLIENT_SECRET',
        verified: true,
      })
    },
  )
})

describe('8. exit codes and hints that lead somewhere', () => {
  it('a 401 with the secret from SVC_CLIENT_SECRET says so; no word of an OTP or assertion', async () => {
    const r = await svc(['whoami', '--json'], {env: {...sbx.env, SVC_CLIENT_SECRET: 'sk_wrong'}})
    expect(r.code).toBe(4)
    const err = r.json().error
    expect(err).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      details: {profile: 'local', secretFrom: 'SVC_CLIENT_SECRET', tokenId: sbx.emu.credentials.tokenId},
    })
    expect(err.hint).toBe(
      `Check the token id (${sbx.emu.credentials.tokenId}) and client secret: the secret came from the SVC_CLIENT_SECRET environment variable (it overrides profile local's stored secret); unset or correct SVC_CLIENT_SECRET.`,
    )
    expect(r.stdout + r.stderr).not.toMatch(/OTP|assertion/)
    expect(r.stdout + r.stderr).not.toContain('sk_wrong')
  })

  it('a 401 with a stored secret points at `svc login --profile <it>`, for any command', async () => {
    const {SVC_BASE_URL: _u, SVC_TOKEN_ID: _t, SVC_CLIENT_SECRET: _s, ...plain} = sbx.env
    const env = {...plain, SVC_CONFIG_DIR: join(work, 'stored-config')}
    const login = await svc(
      loginArgs('stale', sbx.url, sbx.emu.credentials.tokenId, '--environment', 'sandbox', '--no-verify', '--json'),
      {env, input: 'sk_stale'},
    )
    expect(login.code, login.stderr).toBe(0)
    const r = await svc(['customers', 'list', '--profile', 'stale', '--json'], {env})
    expect(r.code).toBe(4)
    expect(r.json().error.details.secretFrom).toBe('stored')
    expect(r.json().error.hint).toContain("profile stale's stored credentials")
    expect(r.json().error.hint).toContain('run `svc login --profile stale`')
    expect(r.stderr).toBe(`Error: ${r.json().error.reason} (UNAUTHORIZED, HTTP 401)\n`)
  })

  it('a local sandbox never started: exit 9 "not running ... start it", not exit 4 (whoami, doctor, any command)', async () => {
    const env = freshUser('never')
    const who = await svc(['whoami'], {env})
    expect(who.code).toBe(9)
    expect(who.stderr).toContain(
      `Error: The local sandbox is not running at http://127.0.0.1:4010 (never started: no credentials in ${join(env.SVC_DATA_DIR, 'sandbox')}) (NETWORK_ERROR)`,
    )
    expect(who.stderr).toContain('Hint: Start it with `svc sandbox serve --detach`')
    const list = await svc(['customers', 'list', '--json'], {env})
    expect(list.code).toBe(9)
    expect(list.json().error.code).toBe('NETWORK_ERROR')
    const doctor = await svc(['doctor', '--json'], {env})
    const profile = (doctor.json().checks as Array<{name: string; status: string; detail: string; hint?: string}>).find(
      (c) => c.name === 'profile',
    )!
    expect(profile).toMatchObject({
      status: 'problem',
      detail: expect.stringContaining('never started'),
      hint: expect.stringContaining('Start it with `svc sandbox serve --detach`'),
    })
  })

  it('the next step after `agents me quote --profile X` carries --profile X', async () => {
    const c = await fundedPayer(sbx, ['USD'])
    const created = await svc(
      [
        'agents',
        'create',
        '--customer',
        c.id,
        '--name',
        'Payer',
        '--permission',
        'CREATE_QUOTES',
        '--permission',
        'EXECUTE_QUOTES',
        '--permission',
        'VIEW_TRANSACTIONS',
        '--per-transaction',
        '50.00',
        '--limit-currency',
        'USD',
        '--json',
      ],
      {env: sbx.env},
    )
    expect(created.code, created.stderr).toBe(0)
    expect(
      (await svc(['agents', 'login', created.json().deviceCode.code, '--as', 'payer-bot', '--json'], {env: sbx.env}))
        .code,
    ).toBe(0)
    const agentEnv = {...sbx.env, SVC_TOKEN_ID: undefined, SVC_CLIENT_SECRET: undefined}
    const q = await svc(
      [
        'agents',
        'me',
        'quote',
        '--from',
        c.account('USD'),
        '--to',
        c.dest,
        '--send',
        '20.00',
        '--profile',
        'payer-bot',
      ],
      {env: agentEnv},
    )
    expect(q.code, q.stderr).toBe(0)
    const next = /svc agents me execute (Quote:\S+)( --profile \S+)?$/m.exec(q.stderr)!
    expect(next[2]).toBe(' --profile payer-bot')
    // The printed step runs as printed.
    const ran = await svc(next[0].split(' ').slice(1), {env: agentEnv})
    expect(ran.code, ran.stderr).toBe(0)
  })

  it('`svc login` takes the URL from SVC_BASE_URL when --base-url is not given; the flag still wins', async () => {
    const env = {...sbx.env, SVC_CONFIG_DIR: join(work, 'login-env')}
    const r = await svc(['login', '--profile', 'from-env', '--json'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({profile: 'from-env', environment: 'local', baseUrl: sbx.url, verified: true})
    const flag = await svc(
      ['login', '--profile', 'from-flag', '--base-url', 'http://127.0.0.1:4999', '--no-verify', '--json'],
      {env},
    )
    expect(flag.json()).toMatchObject({baseUrl: 'http://127.0.0.1:4999/2025-10-13'})
  })
})
