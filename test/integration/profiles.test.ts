import {existsSync, mkdirSync, readFileSync, readdirSync, utimesSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {CliResult} from '../helpers/cli.js'
import {NO_ENV_CREDENTIALS, startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {fileMode} from '../helpers/files.js'
import {loginArgs} from '../helpers/cli.js'

let sbx: TestSandbox
let secret: string
beforeAll(async () => {
  sbx = await startSandbox()
  secret = sbx.env.SVC_CLIENT_SECRET
})
afterAll(async () => sbx.stop())

// A user with no env credentials (NO_ENV_CREDENTIALS): only what `svc login` stores.
const noSecret = (r: CliResult) => {
  expect(r.stdout).not.toContain(secret)
  expect(r.stderr).not.toContain(secret)
}

describe('login, whoami, profiles, logout', () => {
  it('refuses the secret as a flag value without echoing it (exit 2, nothing stored)', async () => {
    const r = await sbx.run(
      [
        'login',
        '--profile',
        'p0',
        '--base-url',
        sbx.url,
        '--token-id',
        sbx.env.SVC_TOKEN_ID,
        `--secret=${secret}`,
        '--json',
      ],
      {env: NO_ENV_CREDENTIALS},
    )
    expect(r.code).toBe(2)
    expect(r.json().error.reason).toMatch(/never accepted as a flag/)
    noSecret(r)
    expect(existsSync(join(sbx.env.SVC_CONFIG_DIR, 'credentials.json'))).toBe(false)
  })

  it('names what is missing off a TTY: the secret source, --token-id, --environment for a remote URL', async () => {
    const noSecretGiven = await sbx.run(['login', '--profile', 'p0', '--base-url', sbx.url, '--token-id', 'tok'], {
      env: NO_ENV_CREDENTIALS,
    })
    expect(noSecretGiven.code).toBe(2)
    expect(noSecretGiven.stderr).toMatch(/SVC_CLIENT_SECRET.*--secret-stdin/)
    const noToken = await sbx.run(['login', '--profile', 'p0', '--base-url', sbx.url, '--secret-stdin'], {
      env: NO_ENV_CREDENTIALS,
      input: secret,
    })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toContain('--token-id')
    const remote = await sbx.run(
      ['login', '--base-url', 'https://api.example.com', '--token-id', 'tok', '--secret-stdin'],
      {env: NO_ENV_CREDENTIALS, input: secret},
    )
    expect(remote.code).toBe(2)
    expect(remote.stderr).toContain('--environment')
  })

  it('a wrong secret is checked before saving: exit 4 and nothing stored', async () => {
    const r = await sbx.run(loginArgs('bad', sbx.url, sbx.env.SVC_TOKEN_ID, '--json'), {
      env: NO_ENV_CREDENTIALS,
      input: 'not-the-secret',
    })
    expect(r.code).toBe(4)
    expect(r.json().error.code).toBe('UNAUTHORIZED')
    expect(existsSync(join(sbx.env.SVC_CONFIG_DIR, 'credentials.json'))).toBe(false)
  })

  it('logs in from stdin: verified, active, secret stored 0600 in a 0700 dir and never printed', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(loginArgs('dev', sbx.url, sbx.env.SVC_TOKEN_ID, '--json'), {
      env: NO_ENV_CREDENTIALS,
      input: secret + '\n',
    })
    expect(r.code).toBe(0)
    noSecret(r)
    expect(r.json()).toMatchObject({
      profile: 'dev',
      environment: 'local',
      tokenId: sbx.env.SVC_TOKEN_ID,
      verified: true,
      active: true,
    })
    expect(sbx.requestCount()).toBe(before + 1)
    const creds = join(sbx.env.SVC_CONFIG_DIR, 'credentials.json')
    expect(fileMode(creds)).toBe(0o600)
    expect(fileMode(join(sbx.env.SVC_CONFIG_DIR, 'config.json'))).toBe(0o600)
    expect(fileMode(sbx.env.SVC_CONFIG_DIR)).toBe(0o700)
    expect(JSON.parse(readFileSync(creds, 'utf8')).profiles.dev).toBe(secret)
    expect(readFileSync(join(sbx.env.SVC_CONFIG_DIR, 'config.json'), 'utf8')).not.toContain(secret)
  })

  it('logs in from SVC_CLIENT_SECRET into a second profile, which becomes active', async () => {
    const r = await sbx.run(
      [
        'login',
        '--profile',
        'other',
        '--environment',
        'sandbox',
        '--base-url',
        sbx.url,
        '--token-id',
        sbx.env.SVC_TOKEN_ID,
        '--json',
      ],
      {env: {...NO_ENV_CREDENTIALS, SVC_CLIENT_SECRET: secret}},
    )
    expect(r.code).toBe(0)
    expect(r.json()).toMatchObject({profile: 'other', environment: 'sandbox'})
    noSecret(r)
  })

  it('whoami reports the live profile and verifies it; --profile picks another', async () => {
    const r = await sbx.run(['whoami', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(r.code).toBe(0)
    expect(r.json()).toMatchObject({
      profile: 'other',
      environment: 'sandbox',
      baseUrl: sbx.url,
      tokenId: sbx.env.SVC_TOKEN_ID,
      credentials: 'stored',
      verified: true,
    })
    noSecret(r)
    const human = await sbx.run(['whoami', '--profile', 'dev'], {env: NO_ENV_CREDENTIALS})
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/profile\s+dev/)
    expect(human.stdout).toMatch(/environment\s+local/)
    noSecret(human)
  })

  it('profiles list shows every profile, the active one, and where secrets come from (never the secret)', async () => {
    const r = await sbx.run(['profiles', 'list', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(r.code).toBe(0)
    const rows = r.json() as Array<{name: string; active: boolean; secret: string}>
    expect(rows.map((x) => x.name)).toEqual(['dev', 'local', 'other'])
    expect(rows.find((x) => x.active)?.name).toBe('other')
    expect(rows.find((x) => x.name === 'dev')?.secret).toBe('stored')
    noSecret(r)
    const human = await sbx.run(['profiles', 'list'], {env: NO_ENV_CREDENTIALS})
    expect(human.stdout).toMatch(/\*\s+other/)
  })

  it('profiles use switches the active profile; an unknown name is exit 2', async () => {
    expect((await sbx.run(['profiles', 'use', 'dev'], {env: NO_ENV_CREDENTIALS})).code).toBe(0)
    expect((await sbx.run(['whoami', '--no-verify', '--json'], {env: NO_ENV_CREDENTIALS})).json().profile).toBe('dev')
    const unknown = await sbx.run(['profiles', 'use', 'nope', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(unknown.code).toBe(2)
    expect(unknown.json().error.reason).toContain('nope')
  })

  it('whoami with a wrong stored secret is exit 4', async () => {
    const r = await sbx.run(['whoami', '--json'], {env: {...NO_ENV_CREDENTIALS, SVC_CLIENT_SECRET: 'wrong'}})
    expect(r.code).toBe(4)
  })

  it('logout forgets the secret but keeps the profile; whoami then fails with exit 4', async () => {
    const r = await sbx.run(['logout', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(r.code).toBe(0)
    expect(r.json()).toEqual({profile: 'dev', loggedOut: true})
    expect(
      JSON.parse(readFileSync(join(sbx.env.SVC_CONFIG_DIR, 'credentials.json'), 'utf8')).profiles.dev,
    ).toBeUndefined()
    expect(
      (await sbx.run(['profiles', 'list', '--json'], {env: NO_ENV_CREDENTIALS}))
        .json()
        .map((x: {name: string}) => x.name),
    ).toContain('dev')
    const who = await sbx.run(['whoami', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(who.code).toBe(4)
    expect(who.json().error.reason).toContain('no API credentials')
    expect((await sbx.run(['whoami', '--profile', 'other', '--json'], {env: NO_ENV_CREDENTIALS})).code).toBe(0)
  })

  it('profiles remove deletes the profile and its secret; removing it again is exit 5', async () => {
    const r = await sbx.run(['profiles', 'remove', 'other', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(r.code).toBe(0)
    expect(
      JSON.parse(readFileSync(join(sbx.env.SVC_CONFIG_DIR, 'credentials.json'), 'utf8')).profiles.other,
    ).toBeUndefined()
    expect(fileMode(join(sbx.env.SVC_CONFIG_DIR, 'credentials.json'))).toBe(0o600)
    const again = await sbx.run(['profiles', 'remove', 'other', '--json'], {env: NO_ENV_CREDENTIALS})
    expect(again.code).toBe(5)
    expect(again.json().error.code).toBe('PROFILE_NOT_FOUND')
  })
})

describe('parallel svc processes sharing one config dir (CI jobs on one runner)', () => {
  // sbx.run runs one command in-process at a time and sends the others started meanwhile to the built
  // binary: N - 1 processes race the in-process one for the lock (a mkdir lock taken synchronously,
  // so only processes can race it). Eight writers at once on two cores overlap as twelve did.
  const N = 8
  const names = Array.from({length: N}, (_, i) => `par-${i}`)
  const dir = () => join(sbx.env.SVC_CONFIG_DIR, 'parallel')
  const login = (name: string) =>
    sbx.run(loginArgs(name, sbx.url, `tok-${name}`, '--no-verify'), {
      input: `secret-${name}`,
      env: {...NO_ENV_CREDENTIALS, SVC_CONFIG_DIR: dir()},
    })
  const stored = () => ({
    config: JSON.parse(readFileSync(join(dir(), 'config.json'), 'utf8')),
    secrets: JSON.parse(readFileSync(join(dir(), 'credentials.json'), 'utf8')).profiles,
  })

  it(`${N} logins at once each keep their profile and secret (0600); ${N / 2} removes at once drop only theirs`, async () => {
    const logins = await Promise.all(names.map(login))
    for (const r of logins) expect(r.code, r.stderr).toBe(0)
    const after = stored()
    expect(Object.keys(after.config.profiles).sort()).toEqual([...names].sort())
    for (const name of names) {
      expect(after.config.profiles[name].tokenId).toBe(`tok-${name}`)
      expect(after.secrets[name]).toBe(`secret-${name}`)
    }
    expect(names).toContain(after.config.activeProfile)
    expect(fileMode(join(dir(), 'config.json'))).toBe(0o600)
    expect(fileMode(join(dir(), 'credentials.json'))).toBe(0o600)

    const gone = names.filter((_, i) => i % 2 === 0)
    const removes = await Promise.all(
      gone.map((name) =>
        sbx.run(['profiles', 'remove', name, '--json'], {env: {...NO_ENV_CREDENTIALS, SVC_CONFIG_DIR: dir()}}),
      ),
    )
    for (const r of removes) expect(r.code, r.stderr).toBe(0)
    const kept = names.filter((_, i) => i % 2 === 1)
    expect(Object.keys(stored().config.profiles).sort()).toEqual([...kept].sort())
    expect(Object.keys(stored().secrets).sort()).toEqual([...kept].sort())
    // No lock or temp file is left behind.
    expect(readdirSync(dir()).sort()).toEqual(['config.json', 'credentials.json'])
  }, 120_000)

  it('a lock a killed process left behind is taken over once it is stale', async () => {
    const lock = join(dir(), '.lock')
    mkdirSync(lock)
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    const r = await login('after-crash')
    expect(r.code, r.stderr).toBe(0)
    expect(stored().secrets['after-crash']).toBe('secret-after-crash')
    expect(existsSync(lock)).toBe(false)
  })
})
