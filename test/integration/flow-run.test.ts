import {spawn} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

const FLOWS = join(process.cwd(), 'flows')
const examples = readdirSync(FLOWS)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
const work = mkdtempSync(join(tmpdir(), 'svc-flow-test-'))
afterAll(() => rmSync(work, {recursive: true, force: true}))

/** A private HOME/config and TMPDIR per run, so a test can see that --local leaves nothing behind. */
function localEnv(name: string) {
  const home = join(work, name)
  const tmp = join(home, 'tmp')
  mkdirSync(tmp, {recursive: true})
  return {
    tmp,
    env: {
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_DATA_DIR: join(home, 'data'),
      TMPDIR: tmp,
      NO_COLOR: '1',
      CI: '1',
    },
  }
}

function junit(file: string) {
  const xml = readFileSync(file, 'utf8')
  expect(XMLValidator.validate(xml)).toBe(true)
  const doc = new XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(xml)
  const suite = doc.testsuites.testsuite
  return {suite, cases: [suite.testcase].flat() as Array<Record<string, any>>}
}

describe('svc flow run --local: every example flow against a fresh throwaway sandbox', () => {
  it.each(examples)(
    '%s runs green, writes well-formed JUnit, and leaves nothing behind',
    async (name) => {
      const {tmp, env} = localEnv(name)
      const report = join(work, `${name}.xml`)
      const r = await svc(['flow', 'run', join(FLOWS, name), '--local', '--json', '--junit', report], {
        env,
        timeoutMs: 120_000,
      })
      expect(r.code, r.stdout + r.stderr).toBe(0)
      const doc = r.json()
      expect(doc.ok).toBe(true)
      expect(doc.error).toBeUndefined()
      expect(doc.steps.every((s: {status: string}) => s.status === 'passed')).toBe(true)
      expect(doc.target.local).toBe(true)
      // Off a TTY: one plain line per step on stderr.
      expect(r.stderr.split('\n').filter((l) => /^ok {3}\[\d+\/\d+\] /.test(l))).toHaveLength(doc.steps.length)
      const {suite, cases} = junit(report)
      expect(Number(suite.tests)).toBe(doc.steps.length)
      expect(suite.failures).toBe('0')
      expect(cases.map((c) => c.name)).toEqual(
        doc.steps.map((s: {index: number; name: string}) => `${s.index}. ${s.name}`),
      )
      // The throwaway sandbox's client secret never reaches the output or the report.
      expect(r.stdout + r.stderr + readFileSync(report, 'utf8')).not.toMatch(/sk_local_/)
      // Hermetic: the sandbox's temp dir is gone and nothing listens on its port any more.
      expect(readdirSync(tmp)).toEqual([])
      await expect(fetch(doc.target.baseUrl + '/config')).rejects.toThrow()
    },
    120_000,
  )
})

describe('svc flow run against a running sandbox', () => {
  let sbx: TestSandbox
  beforeAll(async () => {
    sbx = await startSandbox({decisionDelayMs: 100})
  })
  afterAll(async () => sbx.stop())

  it('runs the onboarding flow against the profile: the sandbox ends with an approved customer', async () => {
    const r = await svc(['flow', 'run', join(FLOWS, 'onboarding-individual.yaml'), '--json'], {
      env: sbx.env,
      timeoutMs: 60_000,
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json().target).toEqual({local: false, baseUrl: sbx.url})
    const customers = sbx.emu.db
      .all<{fullName?: string; kycStatus: string}>('customers')
      .filter((c) => c.fullName === 'Ada Lovelace')
    expect(customers.map((c) => c.kycStatus)).toEqual(['APPROVED'])
    expect(sbx.emu.webhooks.list().filter((e) => e.type === 'CUSTOMER.KYC_APPROVED')).toHaveLength(1)
  }, 60_000)

  it('a broken expectation fails with the step named, expected and actual; later steps are skipped; JUnit has the failure', async () => {
    const broken = readFileSync(join(FLOWS, 'onboarding-individual.yaml'), 'utf8').replace(
      'equals: {verificationStatus: IN_PROGRESS, errors.length: 0}',
      'equals: {verificationStatus: APPROVED}',
    )
    const file = join(work, 'broken.yaml')
    cpSync(join(FLOWS, 'fixtures'), join(work, 'fixtures'), {recursive: true}) // the files it names, relative to it
    writeFileSync(file, broken)
    const report = join(work, 'broken.xml')
    try {
      const r = await svc(['flow', 'run', file, '--json', '--junit', report], {env: sbx.env, timeoutMs: 60_000})
      expect(r.code).toBe(1)
      const doc = r.json()
      expect(doc.ok).toBe(false)
      expect(doc.error).toMatchObject({
        code: 'FLOW_STEP_FAILED',
        details: {
          step: 'submit for verification',
          index: 4,
          line: 31,
          expected: {verificationStatus: 'APPROVED'},
          actual: {verificationStatus: 'IN_PROGRESS'},
        },
      })
      expect(doc.error.reason).toBe(
        'Step 4/7 "submit for verification" (line 31) failed: verificationStatus is "IN_PROGRESS", expected "APPROVED"',
      )
      expect(doc.steps.map((s: {status: string}) => s.status)).toEqual([
        'passed',
        'passed',
        'passed',
        'failed',
        'skipped',
        'skipped',
        'skipped',
      ])
      expect(r.stderr).toContain('FAIL [4/7] submit for verification')
      expect(r.stderr).toContain('expected: {"verificationStatus":"APPROVED"}')
      expect(r.stderr).toContain('actual:   {"verificationStatus":"IN_PROGRESS"}')
      const {suite, cases} = junit(report)
      expect([suite.failures, suite.skipped]).toEqual(['1', '3'])
      expect(cases[3].failure.message).toBe('verificationStatus is "IN_PROGRESS", expected "APPROVED"')
      expect(cases[3].failure['#text']).toContain('"verificationStatus": "IN_PROGRESS"')
      expect(cases[4].skipped).toBeDefined()

      const human = await svc(['flow', 'run', file], {env: sbx.env, timeoutMs: 60_000})
      expect(human.code).toBe(1)
      expect(human.stdout).toBe('')
      expect(human.stderr).toContain('Error: Step 4/7 "submit for verification" (line 31) failed')
    } finally {
      rmSync(file, {force: true})
    }
  }, 60_000)

  it('an invalid file is refused before anything runs (exit 2): every bad step named with its line', async () => {
    const file = join(work, 'invalid.yaml')
    writeFileSync(
      file,
      [
        'name: invalid',
        'sandbox: {decisionDelayMs: -1, colour: blue}',
        'steps:',
        '  - name: two kinds',
        '    svc: customers list',
        '    api: {method: GET, path: /customers}',
        '  - name: bad api',
        '    api: {method: FETCH, path: customers}',
        '    expect: {exit: 0}',
        '  - name: unknown variable',
        '    svc: customers get ${customer.id}',
        '    capture: {1x: id}',
        '  - svc: customers list',
        '    colour: blue',
        '',
      ].join('\n'),
    )
    const before = sbx.requestCount()
    const r = await svc(['flow', 'run', file, '--json', '--junit', join(work, 'never.xml')], {env: sbx.env})
    expect(r.code).toBe(2)
    const errors = r
      .json()
      .error.details.errors.map(
        (e: {field: string; line: number; step?: string}) => `${e.line} ${e.field} ${e.step ?? '-'}`,
      )
    // The sandbox settings are checked with the sandbox's own schema, in the same pass as the steps.
    expect(errors).toEqual([
      '2 sandbox.decisionDelayMs -',
      '2 sandbox.colour -',
      '4 steps[0] two kinds',
      '8 steps[1].api.method bad api',
      '8 steps[1].api.path bad api',
      '9 steps[1].expect.exit bad api',
      '11 steps[2].svc unknown variable',
      '12 steps[2].capture.1x unknown variable',
      '13 steps[3].name -',
      '14 steps[3].colour -',
    ])
    expect(sbx.requestCount()).toBe(before)
    expect(readdirSync(work)).not.toContain('never.xml')
    const yamlError = join(work, 'syntax.yaml')
    writeFileSync(yamlError, 'name: x\nsteps:\n  - name: a\n    svc: [a\n')
    const y = await svc(['flow', 'run', yamlError], {env: sbx.env})
    expect(y.code).toBe(2)
    expect(y.stderr).toMatch(/\(yaml\): .*\(line 5\)/)
  })

  it('an expected failure holds: exit code and the error document (argv list form)', async () => {
    const file = join(work, 'exit.yaml')
    writeFileSync(
      file,
      [
        'name: exit',
        'steps:',
        '  - name: missing customer',
        '    svc: [customers, get, "Customer:nope"]',
        '    expect:',
        '      exit: 5',
        '      equals: {error.status: 404}',
        '      matches: {error.code: NOT_FOUND}',
        '',
      ].join('\n'),
    )
    const ok = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(ok.code, ok.stdout).toBe(0)
    writeFileSync(
      file,
      ['name: exit', 'steps:', '  - name: missing customer', '    svc: [customers, get, "Customer:nope"]', ''].join(
        '\n',
      ),
    )
    const r = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(r.code).toBe(1)
    expect(r.json().error.reason).toMatch(
      /^Step 1\/1 "missing customer" \(line 3\) failed: exit code 5, expected 0 \(\w*NOT_FOUND: /,
    )
    expect(r.json().error.details.actual).toMatchObject({exit: 5, output: {error: {status: 404}}})
  })

  it('a capture that finds nothing and a webhook that never comes fail their step', async () => {
    const file = join(work, 'runtime.yaml')
    writeFileSync(
      file,
      [
        'name: runtime',
        'steps:',
        '  - name: list',
        '    api: {method: GET, path: /customers}',
        '    capture: {first: "data[999].id"}',
        '',
      ].join('\n'),
    )
    const r = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(r.code).toBe(1)
    expect(r.json().error.details).toMatchObject({step: 'list', expected: 'a value at data[999].id'})
    writeFileSync(
      file,
      [
        'name: runtime',
        'steps:',
        '  - name: never',
        '    webhook: {type: CUSTOMER.KYC_REJECTED}',
        '    timeout: 500ms',
        '',
      ].join('\n'),
    )
    const w = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(w.code).toBe(1)
    expect(w.json().error.reason).toMatch(/no CUSTOMER.KYC_REJECTED event within 500 ms/)
  })
})

describe('svc flow run --local, interrupted', () => {
  it('Ctrl-C stops the flow (exit 130) and still removes the throwaway sandbox', async () => {
    const {tmp, env} = localEnv('interrupted')
    const file = join(work, 'slow.yaml')
    writeFileSync(
      file,
      [
        'name: slow',
        'steps:',
        '  - name: one',
        '    api: {method: GET, path: /config}',
        '  - name: wait',
        '    webhook: {type: CUSTOMER.KYC_REJECTED}',
        '    timeout: 60s',
        '',
      ].join('\n'),
    )
    const child = spawn(
      process.execPath,
      [join(process.cwd(), 'bin/run.js'), 'flow', 'run', file, '--local', '--json'],
      {env: {PATH: process.env.PATH, ...env}},
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const until = Date.now() + 20_000
    while (!stderr.includes('ok   [1/2] one') && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    expect(readdirSync(tmp)).toHaveLength(1) // the running sandbox's data dir
    child.kill('SIGINT')
    expect(await exited).toBe(130)
    const doc = JSON.parse(stdout)
    expect(doc.error.code).toBe('INTERRUPTED')
    expect(doc.steps.map((s: {status: string}) => s.status)).toEqual(['passed', 'failed'])
    expect(readdirSync(tmp)).toEqual([])
    await expect(fetch(doc.target.baseUrl + '/config')).rejects.toThrow()
  }, 30_000)
})

describe('svc flow run on a terminal', () => {
  it('shows a spinner line per step, rewritten in place as ✓', async () => {
    const {env} = localEnv('tty')
    const file = join(work, 'tty.yaml')
    writeFileSync(
      file,
      [
        'name: tty',
        'steps:',
        '  - name: read the config',
        '    api: {method: GET, path: /config}',
        '  - name: list customers',
        '    svc: customers list',
        '',
      ].join('\n'),
    )
    const out = await onTerminal(['flow', 'run', file, '--local'], {env})
    expect(out.code).toBe(0)
    expect(out.raw).toMatch(/\r\x1b\[K. \[1\/2\] read the config/) // the spinner line
    expect(out.raw).toMatch(/\r\x1b\[K✓ \[1\/2\] read the config \(\d+ ms\)/)
    expect(out.raw).toMatch(/✓ \[2\/2\] list customers/)
    expect(out.raw).not.toMatch(/^ok {3}\[/m) // the plain off-terminal lines are not used
    expect(out.raw).toContain('PASS tty: 2/2 steps')
  }, 30_000)
})
