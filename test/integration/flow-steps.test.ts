import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {interruptWhen} from '../helpers/cli.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

// `svc:` steps run in the flow's own process (src/lib/scenario/run/svc-step.ts): no Node start-up
// per step. These tests fail if steps go back to child processes, and drive the two ways a step
// is stopped there (its timeout, Ctrl-C).
const work = mkdtempSync(join(tmpdir(), 'svc-flow-steps-'))
let sbx: TestSandbox
beforeAll(async () => {
  sbx = await startSandbox()
})
afterAll(async () => {
  await sbx.stop()
  rmSync(work, {recursive: true, force: true})
})

const CREATE =
  'customers create --type individual --full-name "Ada Lovelace" --email ada-${run.id}@example.com ' +
  '--birth-date 1990-01-15 --nationality US --address-line1 "1 Main St" --address-city Springfield ' +
  '--address-postal-code 94105 --address-country US'

/** A step that creates an individual customer (not submitted for KYC) as `${customer}`. */
const CREATE_STEP = ['  - name: create', `    svc: ${CREATE}`, '    capture: {customer: $}']

/** A flow file in a folder of its own (its relative paths resolve there); returns its path. */
function flowFile(name: string, lines: string[], files: Record<string, string> = {}): string {
  const dir = join(work, name)
  mkdirSync(dir, {recursive: true})
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text)
  writeFileSync(join(dir, 'flow.yaml'), [`name: ${name}`, 'steps:', ...lines, ''].join('\n'))
  return join(dir, 'flow.yaml')
}

const adas = () => sbx.emu.db.all<{fullName?: string}>('customers').filter((c) => c.fullName === 'Ada Lovelace').length

/**
 * The `svc` processes this file started so far, by command words: bin/run.js writes a line per start
 * to SVC_COUNT_STARTS, which the harness points every child at, with the test file's path
 * (test/helpers/process-count-setup.ts). Tests in a file run one after another, so a run's are the new lines.
 */
function starts(): string[] {
  const file = process.env.SVC_COUNT_STARTS
  if (!file) throw new Error('SVC_COUNT_STARTS is not set: run this through vitest.config.ts (process-count-setup.ts)')
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter(([path]) => path === expect.getState().testPath)
    .map(([, words]) => words)
}

describe('svc flow run: svc steps in the flow’s own process', () => {
  it('starts no process for its svc steps (only help goes to one), with stdin, env and @file relative to the flow file', async () => {
    const started = starts().length
    const file = flowFile(
      'in-process',
      [
        '  - name: create from a file beside the flow',
        `    svc: ${CREATE} --data @identity.json`,
        '    capture: {customer: $}',
        '  - name: read it back',
        '    svc: customers get ${customer.id}',
        '    expect: {equals: {fullName: Ada Lovelace}}',
        '  - name: a bad body on stdin is refused like in a child',
        `    svc: ${CREATE} --data -`,
        '    input: "{not json"',
        '    expect: {exit: 2, matches: {error.reason: "stdin is not valid JSON"}}',
        '  - name: help runs as a child process',
        '    svc: customers get --help',
      ],
      {'identity.json': '{"idType":"SSN","identifier":"123-45-6789"}'},
    )
    const before = adas()
    // The sandbox is named by the flow's environment only (this process has no SVC_BASE_URL): the steps got it.
    const r = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json().steps.map((s: {status: string}) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed'])
    // The counter works (help's child wrote its line), and nothing else started a process.
    expect(starts().slice(started)).toEqual(['customers get'])
    expect(adas()).toBe(before + 1) // the refused one created nothing
  }, 60_000)

  it('a step that cannot be stopped fails at its timeout (exit 143, said so) and the flow goes no further', async () => {
    const file = flowFile('unstoppable', [
      ...CREATE_STEP,
      // Nothing was submitted: kyc wait polls until its own --timeout, and has no SIGTERM handler.
      '  - name: wait for a decision that is not coming',
      '    svc: kyc wait ${customer.id} --timeout 3s',
      '    timeout: 400ms',
      '  - name: never runs',
      '    svc: customers list',
    ])
    const r = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(r.code).toBe(1)
    const doc = r.json()
    expect(doc.steps.map((s: {status: string}) => s.status)).toEqual(['passed', 'failed', 'skipped'])
    const cut = doc.steps[1]
    expect(cut.durationMs).toBeGreaterThanOrEqual(400)
    expect(cut.durationMs).toBeLessThan(2_500) // not kyc wait's own 3 s
    expect(cut.failure.message).toBe('exit code 143, expected 0')
    expect(cut.failure.actual.stderr).toMatch(
      /^killed after 400 ms \(it runs inside `svc flow run`, which stopped waiting for it; a request it had sent may still complete\)\n! Customer:\S+ is UNVERIFIED/,
    )
  }, 30_000)

  it('a step that stops itself on SIGTERM (events list --follow) ends at its timeout with its own exit code', async () => {
    const file = flowFile('follow', [
      '  - name: follow events',
      '    svc: webhooks events list --follow',
      '    timeout: 500ms',
      '  - name: runs after it',
      '    api: {method: GET, path: /config}',
    ])
    const r = await svc(['flow', 'run', file, '--json'], {env: sbx.env})
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const doc = r.json()
    expect(doc.steps.map((s: {status: string}) => s.status)).toEqual(['passed', 'passed'])
    expect(doc.steps[0].durationMs).toBeGreaterThanOrEqual(500)
    expect(doc.steps[0].durationMs).toBeLessThan(2_500)
  }, 30_000)

  // The binary: a real SIGINT, and bin/run.js giving `flow run` every command (a lookup that found
  // none would quietly send each step to a child process, which the count below catches).
  it('Ctrl-C during an svc step: exit 130, what the step left running and how to resume; one process in all', async () => {
    const started = starts().length
    const file = flowFile('interrupted', [
      ...CREATE_STEP,
      '  - name: wait',
      '    svc: kyc wait ${customer.id} --timeout 20s',
    ])
    // kyc wait is polling once the first step is done: Ctrl-C then.
    const r = await interruptWhen(
      ['flow', 'run', file, '--json'],
      sbx.env,
      /ok {3}\[1\/2\] create/,
      () => new Promise((res) => setTimeout(res, 500)),
    )
    expect(r.code).toBe(130)
    const doc = JSON.parse(r.stdout)
    expect(doc.steps.map((s: {status: string}) => s.status)).toEqual(['passed', 'failed'])
    expect(doc.error).toMatchObject({
      code: 'INTERRUPTED',
      reason: 'Interrupted at step 2 "wait"',
      details: {step: 'wait', index: 2, resume: expect.stringMatching(/^svc kyc wait Customer:\S+$/)},
    })
    expect(doc.error.hint).toMatch(
      /^Interrupted\. The review of (Customer:\S+) goes on at the Service \(last seen: KYC UNVERIFIED\); stopping svc does not stop it\. Resume or inspect it with: svc kyc wait \1$/,
    )
    expect(starts().slice(started)).toEqual(['flow run'])
  }, 30_000)
})
