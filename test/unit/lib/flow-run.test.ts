import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {describe, expect, it} from 'vitest'
import {getPath, interpolate, splitArgs, UnknownVariable} from '../../../src/lib/scenario/run/paths.js'
import {junitXml, progressReporter} from '../../../src/lib/scenario/run/report.js'
import type {FlowResult} from '../../../src/lib/scenario/run/run.js'

describe('flow paths and variables', () => {
  const doc = {id: 'Customer:1', data: [{id: 'a', n: 3}, {id: 'b'}], error: {code: 'X'}}
  it('reads dot paths, indexes, length and the whole document', () => {
    expect(getPath(doc, 'data[1].id')).toBe('b')
    expect(getPath(doc, '$.data[0].n')).toBe(3)
    expect(getPath(doc, 'data.length')).toBe(2)
    expect(getPath(doc, '$')).toBe(doc)
    expect(getPath(doc, 'data[5].id')).toBeUndefined()
  })
  it('interpolates: a whole reference keeps its type, inside text it becomes text', () => {
    const vars = {c: doc, n: 5}
    expect(interpolate({amount: '${n}', path: '/customers/${c.id}', list: ['${c.data[1]}']}, vars)).toEqual({
      amount: 5,
      path: '/customers/Customer:1',
      list: [{id: 'b'}],
    })
    expect(() => interpolate('${nope}', vars)).toThrow(UnknownVariable)
    expect(() => interpolate('${c.missing}', vars)).toThrow(/c has nothing at .missing/)
  })
  it('splits a command line like a shell', () => {
    expect(splitArgs(`customers create --full-name "Ada \\"A\\" Lovelace" --data '{"a": 1}' --x=" y"`)).toEqual([
      'customers',
      'create',
      '--full-name',
      'Ada "A" Lovelace',
      '--data',
      '{"a": 1}',
      '--x= y',
    ])
  })
})

const result: FlowResult = {
  name: 'A <flow> & "quotes"',
  file: 'f.yaml',
  ok: false,
  durationMs: 1234,
  steps: [
    {index: 1, name: 'one', line: 3, kind: 'svc', status: 'passed', durationMs: 10, captured: []},
    {
      index: 2,
      name: 'two \u001b[31m',
      line: 7,
      kind: 'api',
      status: 'failed',
      durationMs: 20,
      captured: [],
      failure: {message: 'a < b', expected: {x: '<1>'}, actual: {x: '&'}},
    },
    {index: 3, name: 'three', line: 9, kind: 'webhook', status: 'skipped', durationMs: 0, captured: []},
  ],
}

describe('flow reports', () => {
  it('JUnit XML is well formed with escaped names, a failure and a skipped case', () => {
    const xml = junitXml(result)
    expect(XMLValidator.validate(xml)).toBe(true)
    const suite = new XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(xml).testsuites.testsuite
    expect(suite.name).toBe('A <flow> & "quotes"')
    expect([suite.tests, suite.failures, suite.skipped, suite.time]).toEqual(['3', '1', '1', '1.234'])
    expect(suite.testcase[1].failure.message).toBe('a < b')
    expect(suite.testcase[1].name).toBe('2. two [31m')
  })

  const style = {green: (s: string) => s, red: (s: string) => s, dim: (s: string) => s, bold: (s: string) => s}
  it('progress: plain lines off a terminal, a line rewritten in place on one', () => {
    let plain = ''
    const p = progressReporter({write: (t: string) => (plain += t), isTTY: false}, style)
    p.start(1, 3, 'one')
    p.end(result.steps[0], 3)
    p.start(2, 3, 'two')
    p.end(result.steps[1], 3)
    expect(plain.split('\n').slice(0, 2)).toEqual(['ok   [1/3] one (10 ms)', 'FAIL [2/3] two \u001b[31m (20 ms)'])
    expect(plain).toContain('expected: {"x":"<1>"}')
    let tty = ''
    const t = progressReporter({write: (s: string) => (tty += s), isTTY: true}, style)
    t.start(1, 3, 'one')
    t.end(result.steps[0], 3)
    t.stop()
    expect(tty).toMatch(/^\r\x1b\[K⠋ \[1\/3\] one\r\x1b\[K✓ \[1\/3\] one \(10 ms\)\n$/)
  })
})
