// The bodies certify delivers are the contract's own examples (no drift), and its JUnit is well-formed.
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {parse} from 'yaml'
import {describe, expect, it} from 'vitest'
import {SPEC_EVENTS} from '../../../src/lib/webhook-certify/spec-events.js'
import {junitXml} from '../../../src/lib/webhook-certify/run.js'
import {CONTRACT_PATH, REPO_ROOT} from '../../helpers/contract.js'

type Webhooks = Record<
  string,
  {
    post: {
      requestBody: {content: {'application/json': {examples?: Record<string, {value: {type: string; data: unknown}}>}}}
    }
  }
>

describe('webhook certify', () => {
  it('delivers the first example body of every webhook type in the contract, as written there', () => {
    const webhooks = (parse(readFileSync(CONTRACT_PATH, 'utf8')) as {webhooks: Webhooks}).webhooks
    const first = new Map<string, unknown>()
    for (const w of Object.values(webhooks))
      for (const ex of Object.values(w.post.requestBody.content['application/json'].examples ?? {}))
        if (!first.has(ex.value.type)) first.set(ex.value.type, ex.value.data)
    expect(SPEC_EVENTS.map((e) => e.type)).toEqual([...first.keys()])
    for (const e of SPEC_EVENTS) expect(e.data, e.type).toEqual(first.get(e.type))
  })

  it('spec-events.ts is exactly what `npm run spec-events` makes from the contract (not a hand copy that drifted)', () => {
    const check = () =>
      execFileSync(process.execPath, ['build/spec-events.mjs', '--check', '--contract', CONTRACT_PATH], {
        cwd: REPO_ROOT,
        stdio: 'pipe',
      })
    expect(check).not.toThrow()
  }, 30_000)

  it('writes JUnit with one testcase per case and the failure escaped', () => {
    const xml = junitXml({
      url: 'http://h/x?a=1&b=2',
      seed: 1,
      passed: false,
      cases: [
        {name: 'signature: ok', passed: true, expected: '2xx', observed: 'HTTP 200'},
        {name: 'coverage: <unknown>', passed: false, expected: '2xx', observed: 'HTTP 500 "boom"'},
      ],
    })
    expect(xml).toContain('<testsuite name="svc webhooks certify http://h/x?a=1&amp;b=2" tests="2" failures="1">')
    expect(xml).toContain('<testcase classname="certify.signature" name="signature: ok"/>')
    expect(xml).toContain('<failure message="expected 2xx; observed HTTP 500 &quot;boom&quot;"/>')
    expect(xml).toContain('name="coverage: &lt;unknown&gt;"')
  })
})
