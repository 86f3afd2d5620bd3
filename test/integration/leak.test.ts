import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {loginArgs, svc, type CliResult} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

// The built manifest lists every command, including ones added after this test was written.
const MANIFEST = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../oclif.manifest.json', import.meta.url)), 'utf8'),
) as {
  commands: Record<string, {flags: Record<string, unknown>}>
}
/** Commands that run until stopped. */
const LONG_RUNNING = new Set(['sandbox:serve', 'webhooks:listen'])

let sbx: TestSandbox
let secret: string
let basic: string
beforeAll(async () => {
  sbx = await startSandbox()
  secret = sbx.env.SVC_CLIENT_SECRET
  basic = Buffer.from(`${sbx.env.SVC_TOKEN_ID}:${secret}`).toString('base64')
})
afterAll(async () => sbx.stop())

const env = () => ({...sbx.env, SVC_DEBUG: '1', SVC_SANDBOX_DIR: join(sbx.dir, 'not-the-running-sandbox')})

function expectNoLeak(r: CliResult, label: string): void {
  for (const [stream, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    expect(text.includes(secret), `${label}: client secret on ${stream}`).toBe(false)
    expect(text.includes(basic), `${label}: Basic credentials on ${stream}`).toBe(false)
  }
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn))
}

// What the command prints (traces, dry runs, errors, results) is the same code in-process and in the
// binary, so these run in-process, one after another (run-command.ts); what only a whole process can
// print (oclif's own warnings, a crash on the way out) is swept through the binary by the last test.

describe('the client secret never reaches any output', () => {
  it('requests traced with --debug, dry runs, and --json errors and results', async () => {
    const customer = (
      await svcInProcess(['customers', 'create', '--type', 'individual', '--full-name', 'Leak Check', '--json'], {
        env: sbx.env,
      })
    ).json()
    const cases: string[][] = [
      ['customers', 'create', '--type', 'individual', '--full-name', 'Debug Dan', '--debug'],
      ['customers', 'create', '--type', 'individual', '--full-name', 'Dry Dora', '--dry-run', '--debug'],
      ['customers', 'create', '--type', 'individual', '--full-name', 'Dry Json', '--dry-run', '--json'],
      ['customers', 'get', customer.id, '--debug', '--json'],
      ['customers', 'list', '--debug', '--all'],
      ['customers', 'update', customer.id, '--full-name', 'Leak Checked', '--debug', '--json'],
      ['customers', 'delete', customer.id, '--dry-run', '--debug'],
      ['api', 'GET', '/config', '--debug'],
      ['api', 'POST', '/customers', '--data', '{"customerType":"INDIVIDUAL"}', '--dry-run', '--debug', '--json'],
      ['api', 'GET', '/customers/Customer:nope', '--debug', '--json'],
      ['whoami', '--debug', '--json'],
      ['whoami', '--debug'],
      ['webhooks', 'endpoint', '--debug', '--json'],
      ['profiles', 'list', '--json'],
    ]
    for (const args of cases) {
      const r = await svcInProcess(args, {env: env()})
      expect([0, 5], `${args.join(' ')}: ${r.stderr}`).toContain(r.code) // 5: the deliberate 404
      expectNoLeak(r, args.join(' '))
    }
    // The trace really is there (so the assertions above looked at something).
    const traced = await svcInProcess(['customers', 'get', customer.id, '--debug'], {env: sbx.env})
    expect(traced.stderr).toMatch(/> GET .*\/customers\//)
    expect(traced.stderr).toContain('authorization: [REDACTED]')
  })

  it('a rejected secret (401) and svc login --debug do not echo it', async () => {
    const wrong = await svcInProcess(['customers', 'list', '--debug', '--json'], {
      env: {...env(), SVC_CLIENT_SECRET: secret + 'x'},
    })
    expect(wrong.code).toBe(4)
    expectNoLeak(wrong, '401')
    const login = await svcInProcess(loginArgs('leak', sbx.url, sbx.env.SVC_TOKEN_ID, '--debug', '--json'), {
      env: {...env(), SVC_CLIENT_SECRET: undefined},
      input: secret,
    })
    expect(login.code).toBe(0)
    expectNoLeak(login, 'login')
  })

  it('every command in the manifest, run with --debug --json (and --dry-run where it has one)', async () => {
    const ids = Object.keys(MANIFEST.commands).filter((id) => !LONG_RUNNING.has(id))
    expect(ids.length).toBeGreaterThan(15)
    const runs = ids.flatMap((id) => {
      const base = [...id.split(':'), '--debug', '--json', '--timeout', '3s']
      return 'dry-run' in MANIFEST.commands[id].flags ? [base, [...base, '--dry-run']] : [base]
    })
    // Every run in-process, one after another (run-command.ts): the same parsing, client and output as
    // the binary's, written to captured streams. What only a whole process prints (oclif's own warnings,
    // a crash on the way out) comes from bin/run.js and the bundle loader, the same code for every
    // command, so a sample of every BINARY_EVERY-th run (commands of several topic bundles, with and
    // without --dry-run) goes through the built binary as well. `svc mcp` serves on the process's own
    // stdin: as a process it ends when stdin closes, in-process never, so it runs through the binary only.
    const BINARY_EVERY = 40
    const serves = (args: string[]) => args[0] === 'mcp'
    const binary = runs.filter((args, i) => i % BINARY_EVERY === 0 || serves(args))
    for (const args of runs.filter((args) => !serves(args)))
      expectNoLeak(await svcInProcess(args, {env: env()}), args.join(' '))
    await inBatches(binary, 6, async (args) => {
      const r = await svc(args, {env: env(), timeoutMs: 15_000})
      expectNoLeak(r, args.join(' '))
    })
    expect(new Set(binary.map((args) => args[0])).size).toBeGreaterThanOrEqual(4)
  }, 180_000)
})
