// Issue 21 #12, the smaller papercuts, each through the built command: what the person sees and the exit code.
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let sbx: TestSandbox
const work = tempDir('svc-papercuts-')
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => sbx.stop())

const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {name: string; version: string}
const versionDoc = {
  name: pkg.name,
  version: pkg.version,
  platform: process.platform,
  arch: process.arch,
  node: process.version,
}

describe('version', () => {
  it('`svc version` prints the same line as --version; with --json, a document', async () => {
    const line = `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`
    const flag = await sbx.run(['--version'])
    expect([flag.code, flag.stdout]).toEqual([0, line])
    const cmd = await sbx.run(['version'])
    expect([cmd.code, cmd.stdout]).toEqual([0, line])
    const json = await sbx.run(['version', '--json'])
    expect(json.json()).toEqual(versionDoc)
  })

  it('`svc --version --json` prints JSON, not plain text', async () => {
    const r = await sbx.run(['--version', '--json'])
    expect(r.code).toBe(0)
    expect(r.json()).toEqual(versionDoc)
  })
})

describe('--timeout', () => {
  it("--help shows each command's own default: 10m for kyc wait, 24h for a listener, 30s otherwise", async () => {
    const help = async (args: string[]) =>
      (await sbx.run([...args, '--help'])).stdout
        .split('\n')
        .find((l) => l.includes('--timeout=<value>'))
        ?.trim()
    expect(await help(['kyc', 'wait'])).toBe(
      '--timeout=<value>   [default: 10m] give up after this long (30s, 10m ...)',
    )
    expect(await help(['webhooks', 'listen'])).toBe(
      '--timeout=<value>   [default: 24h] give up after this long (30s, 10m ...)',
    )
    expect(await help(['customers', 'get'])).toBe(
      '--timeout=<value>   [default: 30s] give up after this long (30s, 10m ...)',
    )
  })
})

describe('--data must be one JSON object', () => {
  it('an array, a number or null on stdin is refused as such, naming --data, before any request (exit 2)', async () => {
    const before = sbx.requestCount()
    const arr = await sbx.run(['customers', 'create', '--data', '-'], {input: '[1,2]\n'})
    expect(arr.code).toBe(2)
    expect(arr.stderr).toContain('Error: --data: must be a JSON object ({...}), got an array')
    expect(arr.stderr).not.toContain('Missing flag')
    const num = await sbx.run(['customers', 'create', '--data', '42', '--json'])
    expect(num.json().error).toMatchObject({
      code: 'USAGE',
      reason: '--data: must be a JSON object ({...}), got a number',
    })
    const nul = await sbx.run([
      'customers',
      'update',
      'Customer:0b6f3c2e-9a1c-4c55-8d2e-000000000001',
      '--data',
      'null',
    ])
    expect(nul.stderr).toContain('got null')
    expect(sbx.requestCount()).toBe(before)
  })
})

describe('flow run', () => {
  const flow = (extra = '') => {
    const file = join(work, `tiny-${Math.random().toString(36).slice(2)}.yaml`)
    writeFileSync(
      file,
      `name: tiny\n${extra}steps:\n  - name: list customers\n    api: {method: GET, path: /customers}\n    expect: {status: 200}\n`,
    )
    return file
  }

  it('--junit reports/flow.xml makes the missing folders', async () => {
    const report = join(work, 'reports', 'nested', 'flow.xml')
    const r = await sbx.run(['flow', 'run', flow(), '--junit', report], {cwd: work})
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(report, 'utf8')).toMatch(/<testsuite [^>]*name="tiny"/)
    const relative = await sbx.run(['flow', 'run', flow(), '--junit', 'reports/flow.xml'], {cwd: work}) // the flows.md example, from a fresh folder
    expect(relative.code, relative.stderr).toBe(0)
    expect(existsSync(join(work, 'reports', 'flow.xml'))).toBe(true)
  })

  it('a sandbox: block run without --local is warned about at the start, naming each setting ignored', async () => {
    const r = await sbx.run(['flow', 'run', flow('sandbox: {decisionDelayMs: 0, skipVerificationPaperwork: true}\n')], {
      cwd: work,
    })
    expect(r.code, r.stderr).toBe(0)
    const warning = `! The flow's sandbox: settings (skipVerificationPaperwork: true, decisionDelayMs: 0) apply to --local runs only and are ignored against ${sbx.url}; steps that rely on them may wait until their timeout. Run with --local to use them.`
    expect(r.stderr.split('\n')[0]).toBe(warning) // before any step runs
    const without = await sbx.run(['flow', 'run', flow()], {cwd: work})
    expect(without.stderr).not.toContain('sandbox: settings')
  })
})
