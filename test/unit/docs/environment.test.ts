// `svc help environment` lists every variable svc reads (issue 32): this scans src/ and bin/ for
// the names read (env.X, env['X'], env: 'X' on a flag, the proxy variables by name) and fails when
// one is missing from lib/environment.ts, or when the list names one nothing reads any more.
import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ENVIRONMENT} from '../../../src/lib/environment.js'

function files(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

// The CLI's side: the sandbox (src/emulator) is configured by serve's flags, not by svc's environment.
const SOURCES = [...files('src/lib'), ...files('src/commands'), ...files('bin')].filter(
  (f) => !f.endsWith('environment.ts'),
)
const READ = /\benv(?:\.|\[')([A-Z][A-Z0-9_]+)|env: '([A-Z][A-Z0-9_]+)'|'(NO_COLOR|[A-Z]+_PROXY)'/g

describe('svc help environment', () => {
  const read = new Set<string>()
  for (const f of SOURCES) for (const m of readFileSync(f, 'utf8').matchAll(READ)) read.add(m[1] ?? m[2] ?? m[3])
  const listed = new Set(ENVIRONMENT.map((v) => v.name))

  it('lists every variable the CLI reads', () => {
    // NAME is the placeholder of a flow file's `${env.NAME}` in comments, not a variable.
    expect([...read].filter((n) => !listed.has(n) && n !== 'NAME').sort()).toEqual([])
  })

  it('lists nothing twice, each with a description', () => {
    expect(listed.size).toBe(ENVIRONMENT.length)
    for (const v of ENVIRONMENT) expect(v.description.length, v.name).toBeGreaterThan(10)
  })

  it('names only variables the code reads (or proxy variables read by name in proxy.ts)', () => {
    const text = SOURCES.map((f) => readFileSync(f, 'utf8')).join('\n')
    for (const v of ENVIRONMENT) expect(text.includes(v.name) || text.includes(v.name.toLowerCase()), v.name).toBe(true)
  })
})
